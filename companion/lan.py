"""This machine's address on the local network, for the join link phones scan."""

import socket

LOOPBACK_NAMES = {"localhost", "127.0.0.1", "[::1]", "::1", "0.0.0.0"}  # noqa: S104


def lan_address():
    """The address other devices on the network reach us at; 127.0.0.1 when there is none.

    Connecting a UDP socket sends no packet: it only asks the kernel which interface it would use.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never contacted
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def public_base(request):
    """scheme://host:port phones can open: the request's own, unless it came over loopback."""
    host = request.get_host()
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    if (name or host) in LOOPBACK_NAMES:
        address = lan_address()
        host = f"{address}:{port}" if port else address
    return f"{request.scheme}://{host}"
