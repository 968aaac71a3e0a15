"""Automation: `gm run`, one unattended pass over campaigns, and the GM's housekeeping."""
