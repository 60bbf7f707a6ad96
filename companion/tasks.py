"""The work the background worker runs (Django's Tasks interface, its database backend: `make run`
starts the worker beside the server, bin/worker)."""

from django_tasks import task

from companion import services


@task()
def bgstats_import_task(pk):
    services.bgstats_import_run(pk=pk)
