"""E-mail in and out, game-agnostic: orders fetched from a mailbox, reports and reminders sent.

inbox.py    where mail comes from (Maildir, mbox, IMAP)
body.py     a raw message -> the sender and the order text (MIME, HTML, attachments)
intake.py   each fetched message: kept, matched to a player, checked, stored, answered
outbox.py   RFC 5322 messages: replies, turn reports, reminders
smtp.py     sending with retries and a sent log, so a rerun never sends twice
passwords.py  scrypt hashes of player passwords under secret/
settings.py   the `mail:` block of campaign.yaml, secrets, the GM's mail log
"""
