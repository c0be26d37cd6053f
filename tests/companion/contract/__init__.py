"""The game contract's own game, Strafpunkte: registered from the tests, never shipped."""
