package lang

// German: what a move did (rules.Report's notices: check, game over, the
// mine strikes and surfacings of Seachess, Baltic's scores, Battle's shots,
// Transporter's transports) and the words of the boards (rules.WordsIn,
// the text and HTML boards).
func init() {
	add(German, map[string]string{
		// Every variant.
		"%s.":                          "%s.",
		"Game over: %s.":               "Partie beendet: %s.",
		"game over: %s":                "Partie beendet: %s",
		"%s is in check":               "%s steht im Schach",
		"%s is in check (FIDE 3.9.1).": "%s steht im Schach (FIDE 3.9.1).",

		// Seachess: its pieces, named for a viewer.
		"boat":                  "Boot",
		"cruiser":               "Kreuzer",
		"torpedo boat":          "Torpedoboot",
		"submarine":             "U-Boot",
		"destroyer":             "Zerstörer",
		"aircraft carrier":      "Flugzeugträger",
		"commando ship":         "Kommandoschiff",
		"aircraft":              "Flugzeug",
		"submerged submarine":   "getauchtes U-Boot",
		"a submerged submarine": "ein getauchtes U-Boot",
		"your %s":               "Ihr %s",
		"%s's %s":               "%[2]s von %[1]s",
		// Seachess: what a move did (S10).
		"your hidden move is sealed: %s (S10.1)":                            "Ihr verborgener Zug ist versiegelt: %s (S10.1)",
		"%s made a hidden move: %s":                                         "%s hat verborgen gezogen: %s",
		"%s made a hidden move (S10.1)":                                     "%s hat verborgen gezogen (S10.1)",
		"%s torpedoed %s on %s":                                             "%s hat torpediert: %s auf %s",
		"%s captured %s on %s":                                              "%s hat geschlagen: %s auf %s",
		"%s surfaced and captured %s on %s":                                 "%s ist aufgetaucht und hat geschlagen: %s auf %s",
		"%s surfaced on %s":                                                 "%s ist auf %s aufgetaucht",
		"%s captured %s on %s (S6.1)":                                       "%s hat geschlagen: %s auf %s (S6.1)",
		"%s struck a mine on %s (S3.3)":                                     "%s ist auf %s auf eine Mine gelaufen (S3.3)",
		"%s struck your mine on %s (S3.3)":                                  "%s ist auf %s auf Ihre Mine gelaufen (S3.3)",
		"%s struck %s's mine on %s (S3.3)":                                  "%[1]s ist auf %[3]s auf eine Mine von %[2]s gelaufen (S3.3)",
		"a mine on %s destroyed %s (S3.3)":                                  "eine Mine auf %s hat zerstört: %s (S3.3)",
		"%s on %s has reloaded its mine (S3.2)":                             "%s auf %s hat seine Mine nachgeladen (S3.2)",
		"%s on %s has reloaded (S4.3)":                                      "%s auf %s hat nachgeladen (S4.3)",
		"%s is lost with its carrier (S7.3)":                                "%s ist mit seinem Träger verloren (S7.3)",
		"%s on %s was forced up by a destroyer%s%s (S6.2)":                  "%s auf %s wurde von einem Zerstörer zum Auftauchen gezwungen%s%s (S6.2)",
		"%s on %s surfaced, its time underwater being up%s%s (S5.6)":        "%s auf %s ist aufgetaucht, da seine Tauchzeit um war%s%s (S5.6)",
		", but could not come up under the commando ship there and is lost": ", konnte aber unter dem Kommandoschiff dort nicht auftauchen und ist verloren",
		", capturing %s":                                                    " und hat dabei geschlagen: %s",
		", and was destroyed by a mine there":                               ", und wurde dort von einer Mine zerstört",
		"you are in check":                                                  "Sie stehen im Schach",
		"you are in check by a submarine (S5.8)":                            "Sie stehen im Schach durch ein U-Boot (S5.8)",
		"you are in check, also by a submarine (S5.8)":                      "Sie stehen im Schach, auch durch ein U-Boot (S5.8)",
		"%s is in check by a submarine (S5.8)":                              "%s steht im Schach durch ein U-Boot (S5.8)",
		"%s is in check, also by a submarine (S5.8)":                        "%s steht im Schach, auch durch ein U-Boot (S5.8)",
		"check":                             "Schach",
		"check by a submarine (S5.8)":       "Schach durch ein U-Boot (S5.8)",
		"check, also by a submarine (S5.8)": "Schach, auch durch ein U-Boot (S5.8)",

		// Submachine.
		"cardinal":                         "Kardinal",
		"marshall":                         "Marschall",
		"%s teleported from %s to %s (M3)": "Teleport: %s von %s nach %s (M3)",

		// Baltic Sea Chess: a score (B4, B5).
		"%s scores %s (%s): %s %d, %s %d.":  "%s erzielt %s (%s): %s %d, %s %d.",
		"a stack of %d on the far rank, %s": "ein Stapel aus %d auf der letzten Reihe, %s",
		"a stack of %d, %s":                 "ein Stapel aus %d, %s",
		"the far rank, %s":                  "die letzte Reihe, %s",

		// Chess Battle.
		"%s's %s on %s shot %s's %s on %s (C3).":                                     "%[2]s von %[1]s auf %[3]s hat geschossen: %[5]s von %[4]s auf %[6]s (C3).",
		"%s's %s took %s's %s on %s.":                                                "%[2]s von %[1]s hat geschlagen: %[4]s von %[3]s auf %[5]s.",
		"%s's soldier reached %s and left the board; %s removed %s's %s on %s (C4).": "Soldat von %[1]s hat %[2]s erreicht und das Brett verlassen; %[3]s hat entfernt: %[5]s von %[4]s auf %[6]s (C4).",
		"%s's soldier reached %s and left the board; %s has nothing but the headquarter, so nothing else is removed (C4).": "Soldat von %[1]s hat %[2]s erreicht und das Brett verlassen; %[3]s hat nur noch das Hauptquartier, also wird nichts weiter entfernt (C4).",
		"%s's headquarter is in check from %s.": "Hauptquartier von %[1]s steht im Schach, von %[2]s aus.",

		// Transporter Chess (T4.1, T5).
		"the %s landing on %s is transported to %s (T4.1)":                  "%s landet auf %s und wird nach %s transportiert (T4.1)",
		"the %s stays on %s: no transporter square opposite is free (T4.1)": "%s bleibt auf %s: kein gegenüberliegendes Transporterfeld ist frei (T4.1)",
		"%s's %s on %s is captured":                                         "%[2]s von %[1]s auf %[3]s ist geschlagen",
		"the %s promotes to a %s (T5)":                                      "Umwandlung: %s wird zu %s (T5)",
		"the %s promotes to an %s (T5)":                                     "Umwandlung: %s wird zu %s (T5)",

		// The HTML board's legend (rules/htmlboard).
		"%s's pieces: dark letters on white discs; %s's: white letters on black discs.":           "Figuren von %s: dunkle Buchstaben auf weißen Scheiben; von %s: weiße Buchstaben auf schwarzen Scheiben.",
		"%s's pieces are the outlined figures (♔ ♕ ♖ ♗ ♘ ♙), %s's the filled ones (♚ ♛ ♜ ♝ ♞ ♟).": "Die Figuren von %s sind die umrissenen (♔ ♕ ♖ ♗ ♘ ♙), die von %s die gefüllten (♚ ♛ ♜ ♝ ♞ ♟).",
		"Blue squares: the open sea; sand-coloured squares: the havens.":                          "Blaue Felder: das offene Meer; sandfarbene Felder: die Häfen.",
		"A white gap is no square: a hole or outside the board.":                                  "Eine weiße Lücke ist kein Feld: ein Loch oder außerhalb des Bretts.",
		"Yellow squares: the last move (%s).":                                                     "Gelbe Felder: der letzte Zug (%s).",
		"Red dashed frame: hidden from the other side (a mine or a submerged submarine).":         "Rot gestrichelter Rahmen: vor der anderen Seite verborgen (eine Mine oder ein getauchtes U-Boot).",
		"Red dashed frame: only you see it; your opponent does not.":                              "Rot gestrichelter Rahmen: nur Sie sehen es, Ihr Gegner nicht.",

		// The text board's legends, line by line: the letters stay the
		// variant's, only the words are German.
		"K king, Q queen, R rook, B bishop, N knight, P pawn.":                     "K König, Q Dame, R Turm, B Läufer, N Springer, P Bauer.",
		"Upper case: White's pieces; lower case: Black's; \".\": an empty square.": "Groß: Figuren von Weiß; klein: von Schwarz; \".\": ein leeres Feld.",
		"B boat, C cruiser, T torpedo boat, S submarine, D destroyer,":             "B Boot, C Kreuzer, T Torpedoboot, S U-Boot, D Zerstörer,",
		"A aircraft carrier, K commando ship: White upper case, Black lower.":      "A Flugzeugträger, K Kommandoschiff: Weiß groß, Schwarz klein.",
		"':' a haven square, '.' open sea.":                                        "':' ein Hafenfeld, '.' offenes Meer.",
		"M your mine; C* your cruiser on its own mine;":                            "M Ihre Mine; C* Ihr Kreuzer auf seiner eigenen Mine;",
		"U your submerged submarine, after what floats above it (bU).":             "U Ihr getauchtes U-Boot, nach dem, was darüber schwimmt (bU).",
		"Black's mines and submerged submarines are not shown.":                    "Minen und getauchte U-Boote von Schwarz werden nicht gezeigt.",
		"m your mine; c* your cruiser on its own mine;":                            "m Ihre Mine; c* Ihr Kreuzer auf seiner eigenen Mine;",
		"u your submerged submarine, after what floats above it (Bu).":             "u Ihr getauchtes U-Boot, nach dem, was darüber schwimmt (Bu).",
		"White's mines and submerged submarines are not shown.":                    "Minen und getauchte U-Boote von Weiß werden nicht gezeigt.",
		"M White's mine, m Black's; C*/c* a cruiser on its own mine;":              "M Mine von Weiß, m von Schwarz; C*/c* Kreuzer auf eigener Mine;",
		"U/u a White/Black submerged submarine, after what floats above it.":       "U/u getauchtes U-Boot von Weiß/Schwarz, nach dem, was darüber schwimmt.",
		"& submerged submarines of both sides.":                                    "& getauchte U-Boote beider Seiten.",
		"Mines and submerged submarines are not shown.":                            "Minen und getauchte U-Boote werden nicht gezeigt.",
		"K king, Q queen, R rook, B bishop, N knight, P pawn, C cardinal":          "K König, Q Dame, R Turm, B Läufer, N Springer, P Bauer, C Kardinal",
		"(bishop+knight), M marshall (rook+knight): White upper case,":             "(Läufer+Springer), M Marschall (Turm+Springer): Weiß groß,",
		"Black lower case. \".\" an empty square, \"o\" an empty teleport":         "Schwarz klein. \".\" ein leeres Feld, \"o\" ein leeres Teleportfeld",
		"square (c3 i3 c10 i10, M3); a blank is a hole, not a square (M1).":        "(c3 i3 c10 i10, M3); eine Lücke ist ein Loch, kein Feld (M1).",
		"Wraps (M2): on ranks 1 2 4 5 8 9 11 12, a<->e and g<->k join; down":       "Übergänge (M2): auf den Reihen 1 2 4 5 8 9 11 12 sind a<->e und g<->k",
		"off rank 1 a1->b5 b1->c5 d1->c5 e1->d5 (g-k alike), up off rank 12":       "verbunden; unter Reihe 1 a1->b5 b1->c5 d1->c5 e1->d5 (g-k ebenso),",
		"a12->b8 b12->c8 d12->c8 e12->d8; one way only.":                           "über Reihe 12 a12->b8 b12->c8 d12->c8 e12->d8; nur in eine Richtung.",
		"C cockle  S starfish  L seal  G gull (B2); upper case White, lower":       "C Herzmuschel  S Seestern  L Robbe  G Möwe (B2); groß Weiß, klein",
		"case Black: the owner of the top disc, who moves the whole stack.":        "Schwarz: der Besitzer der obersten Scheibe, der den ganzen Stapel zieht.",
		"A digit is the stack's height: C2 = 2 discs, White cockle on top (B3).":   "Ziffer = Höhe des Stapels: C2 = 2 Scheiben, oben Herzmuschel von Weiß (B3).",
		"H headquarter (royal)  B bomber  T tank  G gun  M machine-gun":            "H Hauptquartier (königlich)  B Bomber  T Panzer  G Geschütz  M MG",
		"C cavalry  S soldier; White in capitals, Red in small letters.":           "C Kavallerie  S Soldat; Weiß in Groß-, Rot in Kleinbuchstaben.",
		"\".\" a light square, \":\" a dark one (C1.2); blanks are no squares.":    "\".\" ein helles Feld, \":\" ein dunkles (C1.2); Lücken sind keine Felder.",
		"White upper case, Black lower case (T2):":                                 "Weiß groß, Schwarz klein (T2):",
		"A Admiral   C Commodore   R Commander   B Assistant   M First Mate":       "A Admiral   C Kommodore   R Kommandant  B Assistent    M Erster Maat",
		"D Advisor   F Fighter     S Super Fighter             I Interference":     "D Berater   F Kämpfer     S Superkämpfer              I Störer",
		"+ after a letter: promoted once, never promotes again (T5)":               "+ nach einem Buchstaben: einmal umgewandelt, nie wieder (T5)",
		"o transporter square (T4)   . empty square":                               "o Transporterfeld (T4)   . leeres Feld",
	})
}
