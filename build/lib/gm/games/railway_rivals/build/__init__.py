"""The building stage: six build turns of three simultaneous rounds (docs/rules/railway-rivals.md).

orders (reading build lines) -> check (the order checker) -> turn (resolving a build turn), with
links (what track costs in pips), company (a company's network as it grows), rounds (one company's
walk through a round), ties, form (the order form) and bot (a simple builder).
"""
