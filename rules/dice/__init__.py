"""Dice games of the source documents (000:3-107, 000:1199-1343, 001:2-32)."""
