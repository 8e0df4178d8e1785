package game

import (
	"strings"

	"github.com/bottlepost/bottlepost/lang"
)

// The tournament commands (tournament.go), as players and referees write
// them.
const (
	// VerbTournament creates a tournament (tournament new …), shows its
	// crosstable (tournament N), or acts on it (tournament N start|join|decline).
	VerbTournament Verb = "tournament"
	// VerbTournaments lists the sender's tournaments.
	VerbTournaments Verb = "tournaments"
	// VerbJoin accepts a tournament's invitation (join [N]).
	VerbJoin Verb = "join"
)

func init() {
	verbParsers[VerbTournament] = parseTournament
	verbParsers[VerbTournaments] = parseNoArgs
	verbParsers[VerbJoin] = parseJoin
}

// entrant is a player named in tournament new: the address, and the name
// written with it ("" for none).
type entrant struct{ name, addr string }

// tournamentUsage is how tournament new is written.
const tournamentUsage = `write tournament new NAME variant VARIANT [rules R] time CONTROL [double] [casual] [starts YYYY-MM-DD] players ADDRESS, ADDRESS, ...`

// isTournamentNew says whether a line is a tournament new command, which
// may be longer than other commands (maxTournamentLine).
func isTournamentNew(line string) bool {
	f := strings.Fields(strings.ToLower(line))
	return len(f) >= 2 && f[0] == string(VerbTournament) && f[1] == "new"
}

// joinTournamentLines joins to a tournament new line the lines after it
// that hold only addresses, so that a long list of players may go on over
// several lines, as mail programs wrap them.
func joinTournamentLines(lines []string) []string {
	var out []string
	for _, raw := range lines {
		line := strings.Join(strings.Fields(raw), " ")
		if n := len(out); n > 0 && isTournamentNew(out[n-1]) && line != "" && onlyAddresses(line) {
			sep := " "
			if prev := strings.TrimSpace(out[n-1]); !strings.HasSuffix(prev, ",") && !strings.HasSuffix(strings.ToLower(prev), " players") {
				sep = ", "
			}
			out[n-1] = strings.TrimSpace(out[n-1]) + sep + line
			continue
		}
		out = append(out, raw)
	}
	return out
}

// onlyAddresses says whether every comma-separated item of a line has an
// address in it.
func onlyAddresses(line string) bool {
	for item := range strings.SplitSeq(strings.TrimSuffix(line, ","), ",") {
		if !strings.Contains(item, "@") {
			return false
		}
	}
	return true
}

// parseNoArgs reads a command that takes nothing.
func parseNoArgs(c *Command, args []string) lang.Text {
	if len(args) > 0 {
		return lang.Msg("%s takes no arguments", c.Verb)
	}
	return lang.Text{}
}

// parseJoin reads "join [N]".
func parseJoin(c *Command, args []string) lang.Text {
	switch len(args) {
	case 0:
		return lang.Text{}
	case 1:
		if n, ok := parseGame(args[0]); ok {
			c.Game = n
			return lang.Text{}
		}
	}
	return lang.Msg("write join, or join N with the tournament's number")
}

// parseTournament reads "tournament new …", "tournament N" and
// "tournament N start|join|decline".
func parseTournament(c *Command, args []string) lang.Text {
	if len(args) == 0 {
		return lang.Msg("write tournament N for a tournament's crosstable, or %s", lang.Msg(tournamentUsage))
	}
	if strings.EqualFold(args[0], "new") {
		c.Arg = "new"
		return parseTournamentNew(c, args[1:])
	}
	n, ok := parseGame(args[0])
	if !ok {
		return lang.Msg("%q is not a tournament number", args[0])
	}
	c.Game = n
	switch {
	case len(args) == 1:
		return lang.Text{}
	case len(args) == 2:
		switch a := strings.ToLower(args[1]); a {
		case "start", "join", "decline":
			c.Arg = a
			return lang.Text{}
		}
	case len(args) >= 3 && strings.EqualFold(args[1], "withdraw"):
		_, addr, used := namedAddress(args[2:])
		if a := strings.Trim(addr, "<>"); used == len(args)-2 && address.MatchString(a) {
			c.Arg, c.Opponent = "withdraw", a
			return lang.Text{}
		}
		return lang.Msg("write tournament N withdraw ADDRESS")
	}
	return lang.Msg("write tournament N, or tournament N start|withdraw ADDRESS (a referee), join or decline")
}

// parseTournamentNew reads the rest of tournament new: the name (quoted,
// or the words before variant), then its terms, then the players.
func parseTournamentNew(c *Command, args []string) lang.Text {
	if len(args) == 0 {
		return lang.Msg(tournamentUsage)
	}
	i := 0
	if strings.HasPrefix(args[0], `"`) {
		for i < len(args) && (i == 0 && len(args[0]) < 2 || !strings.HasSuffix(args[i], `"`)) {
			i++
		}
		if i == len(args) {
			return lang.Msg("the tournament's name has no closing quote: %s", lang.Msg(tournamentUsage))
		}
		i++
	} else {
		for i < len(args) && !strings.EqualFold(args[i], "variant") {
			i++
		}
	}
	if c.Title = plainName(strings.Join(args[:i], " ")); c.Title == "" {
		return lang.Msg("name the tournament: %s", lang.Msg(tournamentUsage))
	}
	for args = args[i:]; len(args) > 0; {
		key := strings.ToLower(args[0])
		switch key {
		case "double":
			c.Double, args = true, args[1:]
			continue
		case "casual", "unrated":
			c.Casual, args = true, args[1:]
			continue
		case "players":
			return parseEntrants(c, strings.Join(args[1:], " "))
		}
		if len(args) >= 2 && key == "starts" {
			c.Arg2, args = args[1], args[2:]
			continue
		}
		if len(args) < 2 {
			return lang.Msg("%q needs a value after it", args[0])
		}
		switch key {
		case "variant":
			c.Variant = strings.ToLower(args[1])
		case "rules", "ruleset":
			c.Rules = strings.ToLower(args[1])
		case "time":
			c.Time = strings.ToLower(args[1])
		default:
			return lang.Msg("%q is not an option of tournament new (variant, rules, time, double, casual, starts, players)", args[0])
		}
		args = args[2:]
	}
	return lang.Msg("name the players after the word players: %s", lang.Msg(tournamentUsage))
}

// parseEntrants reads the players of tournament new: addresses separated
// by commas, each perhaps with a name as in a mail header.
func parseEntrants(c *Command, list string) lang.Text {
	if c.Variant == "" {
		return lang.Msg("say which variant: %s", lang.Msg(tournamentUsage))
	}
	for item := range strings.SplitSeq(list, ",") {
		words := strings.Fields(item)
		if len(words) == 0 {
			continue
		}
		name, addr, used := namedAddress(words)
		if used != len(words) {
			return lang.Msg("%q is not one address: separate the players with commas", strings.TrimSpace(item))
		}
		a := strings.Trim(addr, "<>")
		if !address.MatchString(a) {
			return lang.Msg("%q is not a mail address", addr)
		}
		e := entrant{addr: a}
		if name != "" {
			if e.name = plainName(name); e.name == "" {
				return lang.Msg("%s is not a name bottlepost can show", name)
			}
		}
		c.Entrants = append(c.Entrants, e)
	}
	if n := len(c.Entrants); n < minTournament || n > maxTournament {
		return lang.Msg("a tournament has %d to %d players, not %d", minTournament, maxTournament, n)
	}
	return lang.Text{}
}
