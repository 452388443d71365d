"""Match clocks and foul boards of the field sports (futsal, football, rugby)."""
