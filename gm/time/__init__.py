"""Time: the one clock (GM_NOW), the schedule and deadlines. Imports only the store and the games."""
