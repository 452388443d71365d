"""Everything that touches physical devices: GPIO keypad and horn, LED scoreboards,
the serial display link and the standard scoreboard wire formats."""
