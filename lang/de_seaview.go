package lang

// German: Seachess's status lines under the board (rules/seachess,
// view.go).
func init() {
	add(German, map[string]string{
		"N": "N",
		"E": "O",
		"S": "S",
		"W": "W",
		"%s is in check, also by a submarine (S5.8).":                                                      "%s steht im Schach, auch durch ein U-Boot (S5.8).",
		"%s is in check by a submarine (S5.8).":                                                            "%s steht im Schach durch ein U-Boot (S5.8).",
		"%s's aircraft is in flight from the carrier on %s: it captures on the outline or returns (S7.3).": "Das Flugzeug von %s ist vom Träger auf %s aus in der Luft: es schlägt auf dem Rand oder kehrt zurück (S7.3).",
		"%s %s loaded, facing %s":                                                                          "%s %s geladen, Richtung %s",
		"%s %s fired, facing %s":                                                                           "%s %s abgefeuert, Richtung %s",
		"Torpedo boats (S4): %s.":                                                                          "Torpedoboote (S4): %s.",
		"%s empty":                                                                                         "%s leer",
		"%s loaded":                                                                                        "%s geladen",
		"%s visible, V=%d (may dive for %d)":                                                               "%s sichtbar, V=%d (darf %d tauchen)",
		"%s submerged, comes up at the start of your next turn":                                            "%s getaucht, taucht zu Beginn Ihres nächsten Zuges auf",
		"%s submerged, comes up at the start of its owner's next turn":                                     "%s getaucht, taucht zu Beginn des nächsten Zuges seines Besitzers auf",
		"%s submerged, stays down %d more of your turns":                                                   "%s getaucht, bleibt noch %d Ihrer Züge unten",
		"%s submerged, stays down %d more of its owner's turns":                                            "%s getaucht, bleibt noch %d Züge seines Besitzers unten",
		"Your cruisers (S3.2): %s.":                                                                        "Ihre Kreuzer (S3.2): %s.",
		"%s's cruisers (S3.2): %s.":                                                                        "Kreuzer von %s (S3.2): %s.",
		"Your submarines (S5.3): %s.":                                                                      "Ihre U-Boote (S5.3): %s.",
		"%s's submarines (S5.3): %s.":                                                                      "U-Boote von %s (S5.3): %s.",
		"%s %s":                                                                                            "%s %s",
		"Castling (S8.2): %s.":                                                                             "Rochade (S8.2): %s.",
		"En passant (S2.3): onto %s, taking the boat on %s.":                                               "En passant (S2.3): nach %s, schlägt das Boot auf %s.",
		"Moves without capture or boat move: %d of 150 (S9).":                                              "Züge ohne Schlagen oder Bootzug: %d von 150 (S9).",
	})
}
