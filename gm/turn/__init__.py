"""The turn: the one turn runner, the campaign's turn flow, publishing reports and pictures."""
