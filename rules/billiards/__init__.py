"""Billiards scoring (14.1 continuous, snooker, pyramid, five pins)."""
