"""``mkdocs-zh-translate prefill``: fill the machine cache for a whole site before a build.

A front end like the others: it gathers the site exactly as the English build does (the
plugin's collect mode, shared with ``review sync``) and hands it to the one pipeline
(:class:`~..pipeline.pages.SiteTranslator`); only *where* the misses are translated differs.

- ``run``       the command: collect, pick a runner, translate, summary line
- ``worker``    what a worker process or Ray actor holds: one translator, one chunk at a time
- ``local``     ``--workers N``: N spawned processes, each with its own ONNX Runtime session
- ``cluster``   ``--ray ADDRESS``: a Ray actor pool (imported only when ``--ray`` is given)
- ``progress``  rate and ETA
(The sub-command's arguments are in ``cli.prefill``.)

Whatever the runner, the parent process alone writes the cache, chunk by chunk as results
come back, so a killed prefill loses only the chunks that were in flight.
"""
