package game

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/bottlepost/bottlepost/store"
)

// A player has one shown name, everywhere: in subjects and mails, on the
// web, in the PGN's White and Black tags (the end record binds the names as
// they stood when the game ended), and in whatever lists players (ratings,
// crosstables). displayName is the one function that makes it; a page, a
// record or a list never shows an address in its place.

// maxNameRunes is the longest name shown; a longer one is not a name a
// person chose for a board's caption (a pasted signature, a whole line).
const maxNameRunes = 40

// fallbackName matches the names displayName gives players without one
// ("player 12"): nobody may choose such a name and pass for another player.
var fallbackName = regexp.MustCompile(`(?i)^player\s*#?\d+$`)

// displayName is a player's shown name: the name they chose with the name
// command (playerMeta.Name, issue 33) if set; else the display name of the
// From header of the mail that made their account, or the one the
// challenge that invited them wrote (store.Player.Name); else "player N",
// N being their id. Never their address.
func displayName(p *store.Player) string {
	if p == nil {
		return ""
	}
	if len(p.Meta) > 0 {
		if n := plainName(decodePlayerMeta(p).Name); n != "" {
			return n
		}
	}
	if n := plainName(p.Name); n != "" {
		return n
	}
	return fmt.Sprintf("player %d", p.ID)
}

// nameAndAddress is how a mail to a player names another player: the shown
// name and, since names are not identities, the address (only the players
// of a game are named so, never to an observer).
func nameAndAddress(p *store.Player) string {
	return displayName(p) + " <" + p.Address + ">"
}

// plainName is s as a shown name (its runs of white space made single
// spaces, surrounding quotes gone), or "" when s is none: empty, longer
// than maxNameRunes, holding an address's characters (@ < >) or anything
// unprintable, or in the form of a fallback name.
func plainName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if s == "" || len([]rune(s)) > maxNameRunes || strings.ContainsAny(s, "@<>") || fallbackName.MatchString(s) {
		return ""
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return ""
		}
	}
	return s
}
