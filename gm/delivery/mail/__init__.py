"""E-mail in and out, game-agnostic: orders and commands fetched from a mailbox, reports and
reminders sent.

inbox.py     where mail comes from (Maildir, mbox, IMAP), reading only what is new
body.py      a raw message -> the sender (headers alone) and the order text (MIME, HTML, attachments,
             format=flowed, a forwarded message/rfc822)
automatic.py mail never answered (auto-replies, bulk and list mail, receipts, bounces); bounces noted
quoting.py   what mail programs add: quoted earlier messages, attributions, phone signatures, closings
reading.py   the player's own words: orders, orders and a closing, or a message for the GM
for_gm.py    messages for the GM: kept for `gm inbox`, forwarded to mail.gm, the player told
limits.py    the loop guard and the per-turn caps on press and on answers
desk.py      what one fetch works with: the campaign read once, the ledger of handled messages
intake.py    each fetched message: kept, sender checked, read as a command or orders, answered
answer.py    orders by mail: checked, stored, answered with a receipt
commands.py  players' mail commands: help, status, orders, resend, press, gm
replies.py   replies kept as decided, then sent or handed to the GM; pending ones sent next run
outbox.py    RFC 5322 messages: replies, turn reports, reminders, notices
deliver.py   the one way mail goes out (gm mail and gm run): sent log, the gate, SMTP or .eml
headers.py   the gate: only gm's headers, one registered address, valid ids, stable Message-IDs
smtp.py      the SMTP connection with retries, and the sent log, so a rerun never sends twice
logbook.py   append-only logs (one `- {json}` line per entry, a YAML list)
passwords.py scrypt hashes of player passwords under secret/
settings.py  the `mail:` block of campaign.yaml, secrets, the GM's mail log
"""
