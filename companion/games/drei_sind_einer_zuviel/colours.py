"""3 sind einer zuviel!: the colours of its cards as the screens draw them (the deal form's
swatches, the live board's buttons)."""

SWATCHES = {
    "orange": "#f28c28", "flieder": "#b39ddb", "hellblau": "#81d4fa", "rot": "#e53935",
    "tuerkis": "#26a69a", "magenta": "#d81b60", "olivgruen": "#827717",
}
