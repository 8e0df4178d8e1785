package rules

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
)

// WordsIn are the words of the piece list, the boards' titles and turn
// lines and the squares' accessible names in language l: English for
// English (and any language without words of its own).
func WordsIn(l lang.Lang) *Words {
	if l == lang.German {
		return German
	}
	return English
}

// germanKinds are the German singular and plural of every variant's kinds
// of piece, by the English kind a View's Piece carries (lower case).
var germanKinds = map[string][2]string{
	// Chess, Submachine.
	"king": {"König", "Könige"}, "queen": {"Dame", "Damen"}, "rook": {"Turm", "Türme"},
	"bishop": {"Läufer", "Läufer"}, "knight": {"Springer", "Springer"}, "pawn": {"Bauer", "Bauern"},
	"cardinal": {"Kardinal", "Kardinäle"}, "marshall": {"Marschall", "Marschälle"},
	// Seachess.
	"boat": {"Boot", "Boote"}, "cruiser": {"Kreuzer", "Kreuzer"}, "torpedo boat": {"Torpedoboot", "Torpedoboote"},
	"submarine": {"U-Boot", "U-Boote"}, "submerged submarine": {"getauchtes U-Boot", "getauchte U-Boote"},
	"destroyer": {"Zerstörer", "Zerstörer"}, "aircraft carrier": {"Flugzeugträger", "Flugzeugträger"},
	"aircraft": {"Flugzeug", "Flugzeuge"}, "commando ship": {"Kommandoschiff", "Kommandoschiffe"},
	"mine": {"Mine", "Minen"},
	// Baltic Sea Chess ("" is a disc whose animal is not known).
	"cockle": {"Herzmuschel", "Herzmuscheln"}, "starfish": {"Seestern", "Seesterne"},
	"seal": {"Robbe", "Robben"}, "gull": {"Möwe", "Möwen"}, "": {"Scheibe", "Scheiben"},
	// Chess Battle.
	"headquarter": {"Hauptquartier", "Hauptquartiere"}, "bomber": {"Bomber", "Bomber"},
	"tank": {"Panzer", "Panzer"}, "gun": {"Geschütz", "Geschütze"}, "machine-gun": {"MG", "MGs"},
	"cavalry": {"Kavallerie", "Kavallerie"}, "soldier": {"Soldat", "Soldaten"},
	// Transporter Chess.
	"admiral": {"Admiral", "Admirale"}, "commodore": {"Kommodore", "Kommodoren"},
	"commander": {"Kommandant", "Kommandanten"}, "assistant": {"Assistent", "Assistenten"},
	"first mate": {"Erster Maat", "Erste Maate"}, "advisor": {"Berater", "Berater"},
	"fighter": {"Kämpfer", "Kämpfer"}, "super fighter": {"Superkämpfer", "Superkämpfer"},
	"interference": {"Störer", "Störer"},
}

// germanSpecial are the special squares in German, singular and plural.
var germanSpecial = map[string][2]string{
	"teleport":    {"Teleportfeld", "Teleportfelder"},
	"transporter": {"Transporterfeld", "Transporterfelder"},
}

// germanKind is a kind in German, singular (n == 1) or plural; a kind
// not in the table is looked up as a word (and noted if missing).
func germanKind(kind string, n int) string {
	if w, ok := germanKinds[kind]; ok {
		if n == 1 {
			return w[0]
		}
		return w[1]
	}
	return lang.German.Word(kind)
}

// germanPiece is a piece with its side after it, so no adjective needs
// the noun's gender: "Bauer (Weiß)", "Kämpfer, umgewandelt (Schwarz)".
func germanPiece(side, kind string, promoted bool) string {
	w := germanKind(kind, 1)
	if promoted {
		w += ", umgewandelt"
	}
	return w + " (" + lang.German.Word(side) + ")"
}

// German are the words of the piece list and the boards in German.
var German = &Words{
	Side: func(side string, you bool) string {
		if you {
			return lang.German.Word(side) + " (Sie)"
		}
		return lang.German.Word(side)
	},
	Kind: func(kind string, n int, promoted bool) string {
		w := germanKind(kind, n)
		if promoted {
			w += " (umgewandelt)"
		}
		return w
	},
	Piece:  germanPiece,
	Name:   germanPiece,
	Hidden: func(other string) string { return "verborgen vor " + lang.German.Word(other) },
	Stack:  func(pieces []string) string { return strings.Join(pieces, " auf ") },
	Stacks: "Stapel",
	Special: func(kind string, n int) string {
		if w, ok := germanSpecial[kind]; ok {
			if n == 1 {
				return w[0]
			}
			return w[1]
		}
		return kind
	},
	None: "keine Figuren",
	Title: func(variant string, sides [2]string, v Viewer) string {
		switch v {
		case ViewWhite, ViewBlack:
			return variant + ", aus Sicht von " + lang.German.Word(sides[v])
		case ViewReferee:
			return variant + ", die volle Sicht des Schiedsrichters"
		case ViewPublic:
			return variant + ", was beide Seiten wissen"
		}
		return variant
	},
	Turn: func(sides [2]string, toMove Side, o Outcome) string {
		if o.Over() {
			return lang.German.Tr("Game over: %s.", o.Text(sides))
		}
		return lang.German.Word(sides[toMove]) + " ist am Zug."
	},
	Legend: lang.German.Word,
	Lang:   lang.German,
}
