"""The players' web door (`gm serve`): sign in from the report mail, read one's own report, write
orders checked as one types, store them as mail intake stores them, press and a note to the GM.

tokens.py  sign-in tokens (hashed under secret/), `gm link`
door.py    one player's page, check and store: the one runner, the one door, the mail's storing path
app.py     the Starlette application: routes, sessions, CSRF, rate limits, CSP, the access log
limits.py  token-bucket rate limits
serve.py   running it under uvicorn
"""
