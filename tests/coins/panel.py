"""What a phone's Coins panel shows, pure: whose turn, the pile, and this seat's buttons."""


def panel_model(state, *, viewer, is_host, data, posted, refusal):
    over = state["winner"] is not None
    turn = state["turn"]
    mine = not over and (is_host or viewer == turn)
    return {"pile": state["pile"], "turn": turn, "turn_name": state["seats"][turn]["name"],
            "choices": [n for n in (1, 2, 3) if n <= state["pile"]] if mine else [],
            "over": over}
