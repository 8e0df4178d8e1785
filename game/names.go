package game

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/bottlepost/bottlepost/lang"
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

// chosenName reads the name a player chooses with the name command: 1 to
// maxNameRunes characters, each a letter, a digit, a space or one of
// .-' (issue 33), and not in the form of a fallback name ("player 12").
// It returns the name (its runs of spaces single) or why it is refused,
// phrased for the player.
func chosenName(s string) (string, lang.Text) {
	s = strings.Join(strings.Fields(s), " ")
	switch n := len([]rune(s)); {
	case n == 0:
		return "", lang.Msg("write the name after name, e.g. name Alice Liddell (or name off)")
	case n > maxNameRunes:
		return "", lang.Msg("a name has at most %d characters; %q has %d", maxNameRunes, s, n)
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ' ' && !strings.ContainsRune(".-'", r) {
			return "", lang.Msg("a name is made of letters, digits, spaces and . - ' only; %q is not allowed in it", string(r))
		}
	}
	if fallbackName.MatchString(s) {
		return "", lang.Msg("%q is the form of the names bottlepost gives players without one: choose another", s)
	}
	return s, lang.Text{}
}

// parseName reads "name NAME", "name off", or "name" alone (which says
// the sender's shown name).
func parseName(c *Command, args []string) lang.Text {
	switch {
	case len(args) == 0:
		return lang.Text{}
	case len(args) == 1 && strings.EqualFold(args[0], "off"):
		c.Arg = "off"
		return lang.Text{}
	}
	name, why := chosenName(strings.Join(args, " "))
	if !why.IsZero() {
		return why
	}
	c.Arg = name
	return lang.Text{}
}

// name sets, clears or tells the sender's chosen name (playerMeta.Name),
// which displayName shows before their mail's display name. Games already
// over keep the names their end record bound.
func (h *handling) name(c Command, reply *draft) error {
	switch c.Arg {
	case "":
		how := lang.Msg("the display name of your mail")
		if plainName(h.pmeta.Name) != "" {
			how = lang.Msg("the name you chose")
		} else if plainName(h.player.Name) == "" {
			how = lang.Msg("your mail showed no name")
		}
		reply.notice("Your opponents, the web pages and the PGN records name you %s (%s). Choose a name with: name Alice Liddell", displayName(h.player), how)
		return nil
	case "off":
		h.pmeta.Name = ""
	default:
		h.pmeta.Name = c.Arg
	}
	if err := h.savePlayer(); err != nil {
		return err
	}
	for _, l := range h.games {
		// The games this mail already loaded show the new name too.
		for i, p := range l.seats {
			if p != nil && p.ID == h.player.ID {
				l.seats[i] = h.player
			}
		}
	}
	if c.Arg == "off" {
		reply.notice("You no longer have a name of your own: you are shown as %s, from your mail.", displayName(h.player))
		return nil
	}
	reply.notice("You are now shown as %s to your opponents, on the web, in PGN records and in the ratings lists (finished games keep the names they ended with). Names are not identities: your opponents' mails still show your address.", displayName(h.player))
	return nil
}
