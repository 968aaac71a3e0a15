"""The operating stage: the race schedule, race rounds, and the expansions between them.

schedule (drawn when building ends) -> entries (reading race entries) -> accept (which entries run,
their fees paid) -> races (the trains run) -> round (a race round resolved, the end of the game);
expansion (building paid in cash), network (the railway trains run on), form, bot, advice, setup.
"""
