package game

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules"
)

// Verb names a command a player can send.
type Verb string

// The commands, as players write them (case does not matter).
const (
	VerbNew        Verb = "new"
	VerbAccept     Verb = "accept"
	VerbDecline    Verb = "decline"
	VerbMove       Verb = "move"
	VerbBoard      Verb = "board"
	VerbHistory    Verb = "history"
	VerbDraw       Verb = "draw"
	VerbResign     Verb = "resign"
	VerbGames      Verb = "games"
	VerbHelp       Verb = "help"
	VerbVacation   Verb = "vacation"
	VerbObserve    Verb = "observe"
	VerbTimezone   Verb = "timezone"
	VerbAudit      Verb = "audit"
	VerbAdjudicate Verb = "adjudicate"
	VerbClaim      Verb = "claim"
	VerbDigest     Verb = "digest"
	// VerbPGN asks for a finished game's record as a PGN attachment (record.FinalPGN).
	VerbPGN Verb = "pgn"
	// VerbIf registers a conditional line (if THEIRS then MINE …); VerbConditionals lists
	// the sender's pending lines, or with off clears them.
	VerbIf           Verb = "if"
	VerbConditionals Verb = "conditionals"
	// VerbRatings asks for a rating pool's leaders and the sender's rating
	// (ratings [VARIANT]).
	VerbRatings Verb = "ratings"
	// VerbName sets the sender's shown name (name NAME | name off);
	// VerbSay passes words to the opponent (say TEXT); VerbMessages turns
	// the words of opponents off or on (messages off|on): messages.go.
	VerbName     Verb = "name"
	VerbSay      Verb = "say"
	VerbMessages Verb = "messages"
	// VerbNotation sets whether the sender's chess mails show ICCF numeric
	// notation too (notation iccf|algebraic); VerbSettings lists the
	// sender's settings; board format diagram|list|both is VerbBoard with
	// the format in Arg: settings.go.
	VerbNotation Verb = "notation"
	VerbSettings Verb = "settings"
	// VerbLanguage sets the language of the sender's mails (language
	// de|en): settings.go.
	VerbLanguage Verb = "language"
)

// Command is one line of a player's mail, parsed.
type Command struct {
	Verb Verb
	Line string // the line as written, trimmed
	// new
	Variant  string
	Opponent string // address, "" for an open challenge to be answered by mail
	// OpponentName is the display name written with the opponent's address
	// (new chess vs "Bob Smith" <bob@example.org>), "" for none: an invited
	// stranger's name until they choose their own.
	OpponentName string
	Color        string // "white", "black", "random", "" (the default, random)
	Rules        string
	Time         string
	Casual       bool // new … casual: not rated
	// move: the move text; observe/audit/adjudicate: the game
	Arg string
	// Number is the move number written before a move, as players count
	// them ("8." or "8...", writtenNumber), "" for none: read past, and
	// checked against the move's once it is played.
	Number string
	Game   uint64
	// vacation
	Days int
	// adjudicate
	Result string
	Reason string
	// if: the conditional line's pairs
	Cond []CondPair
	// tournament new: its name, double round robin, the players
	// (tournament_cmd.go)
	Title    string
	Double   bool
	Entrants []entrant
	Arg2     string // tournament new: the start date as written
}

// ParseError is a user error about a command line: phrased for the player.
type ParseError struct {
	Line   string
	Reason lang.Text // why, written in the reply's language
}

func (e *ParseError) Error() string { return fmt.Sprintf("game: %q: %s", e.Line, e.Reason) }

var (
	gameRef = regexp.MustCompile(`^(?i)(?:#|bp-)?(\d{1,12})$`)
	address = regexp.MustCompile(`^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$|^[^@\s<>]+@localhost$`)
)

// ParseCommands reads the command lines of a mail. Lines that start with a
// command word are commands; a line that looks like a move (a short line
// naming a square, or castling) is a bare move; anything else is chatter,
// returned in ignored so the reply can say what was not understood.
// Malformed commands give a ParseError each, in order.
func ParseCommands(lines []string) (cmds []Command, errs []*ParseError, ignored []string) {
	for _, raw := range joinTournamentLines(lines) {
		line := strings.Join(strings.Fields(raw), " ")
		if line == "" {
			continue
		}
		if c, err, ok := parseSay(raw); ok {
			// Words for the opponent, read from the line as written (however
			// long: cut where they are relayed, messages.go).
			if err != nil {
				errs = append(errs, err)
			} else {
				cmds = append(cmds, c)
			}
			continue
		}
		if tooLong(line) {
			ignored = append(ignored, line) // no command is this long: quoted as an excerpt
			continue
		}
		c, err, ok := parseLine(line)
		switch {
		case err != nil:
			errs = append(errs, err)
		case ok:
			cmds = append(cmds, c)
		default:
			ignored = append(ignored, line)
		}
	}
	return cmds, errs, ignored
}

// parseLine reads one line: a command word and its arguments (verbParsers), or else
// perhaps a bare move; ok is false for a line that is neither.
func parseLine(line string) (c Command, err *ParseError, ok bool) {
	fields := strings.Fields(line)
	verb := Verb(strings.ToLower(strings.TrimSuffix(fields[0], ":")))
	if verb == "conditional" {
		verb = VerbConditionals
	}
	parse, known := verbParsers[verb]
	if !known {
		// Not a command word: perhaps a bare move, possibly numbered ("12. Nf3", "12... Nf6", "12… Nf6").
		text := rules.TrimMoveNumber(line)
		if looksLikeMove(text) {
			return Command{Verb: VerbMove, Line: line, Arg: text, Number: writtenNumber(line)}, nil, true
		}
		return Command{}, nil, false
	}
	c = Command{Verb: verb, Line: line}
	if reason := parse(&c, fields[1:]); !reason.IsZero() {
		return Command{}, &ParseError{Line: line, Reason: reason}, false
	}
	return c, nil, true
}

// verbParsers read the arguments of each command word into c, and return why they are
// wrong, phrased for the player, or "".
var verbParsers = map[Verb]func(c *Command, args []string) lang.Text{
	VerbNew: parseNew, VerbMove: parseMove, VerbHelp: parseHelp, VerbVacation: parseVacation,
	VerbAccept: parseGameOnly, VerbDecline: parseGameOnly, VerbBoard: parseBoard, VerbHistory: parseGameOnly,
	VerbResign: parseGameOnly, VerbGames: parseGameOnly, VerbClaim: parseGameOnly,
	VerbDraw: parseDraw, VerbObserve: parseGameArg, VerbAudit: parseGameArg, VerbPGN: parseGameArg,
	VerbDigest: parseDigest, VerbTimezone: parseTimezone, VerbIf: parseIf, VerbConditionals: parseConditionals,
	VerbAdjudicate: parseAdjudicate, VerbRatings: parseRatings, VerbName: parseName, VerbMessages: parseMessages,
	VerbTakeback: parseTakeback, VerbAddress: parseAddress, VerbNotation: parseNotation, VerbSettings: parseSettings,
	VerbLanguage: parseLanguage,
}

// parseNew reads "new VARIANT [vs ADDRESS] [as white|black|random] [rules NAME] [time CONTROL] [casual]",
// where ADDRESS may carry a display name as in a mail header ("Bob Smith" <bob@example.org>).
func parseNew(c *Command, args []string) lang.Text {
	if len(args) == 0 {
		return lang.Msg("say which variant: new VARIANT [vs ADDRESS] [as white|black|random] [rules NAME] [time CONTROL]")
	}
	c.Variant = strings.ToLower(args[0])
	args = casualWord(c, args)
	for i := 1; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return lang.Msg("%q needs a value after it", args[i])
		}
		key, val := args[i], args[i+1]
		if k := strings.ToLower(key); k == "vs" || k == "against" || k == "with" {
			name, addr, used := namedAddress(args[i+1:])
			if name != "" {
				if c.OpponentName = plainName(name); c.OpponentName == "" {
					return lang.Msg("%s is not a name bottlepost can show (at most %d characters, without @, < or >): write new chess vs \"Bob Smith\" <bob@example.org>, or the address alone", name, maxNameRunes)
				}
			}
			val, i = addr, i+used-1
		}
		if reason := newOption(c, key, val); !reason.IsZero() {
			return reason
		}
	}
	return lang.Text{}
}

// namedAddress reads an address written as in a mail header, with a
// display name before it in angle brackets ("Bob Smith" <bob@example.org>,
// Bob Smith <bob@example.org>), from the words of a command line: the name
// ("" when the first word is the address), the address and the number of
// words they take.
func namedAddress(words []string) (name, addr string, used int) {
	if strings.HasPrefix(words[0], "<") || strings.Contains(words[0], "@") && !strings.HasPrefix(words[0], "\"") {
		return "", words[0], 1
	}
	for k, w := range words {
		if at := strings.LastIndex(w, "<"); at >= 0 && strings.HasSuffix(w, ">") {
			before := append(words[:k:k], w[:at])
			return strings.TrimSpace(strings.Join(before, " ")), w[at:], k + 1
		}
	}
	return "", words[0], 1
}

// casualWord takes the word casual (or rated, the default) out of a new
// command's arguments after the variant, wherever it stands, and notes it.
func casualWord(c *Command, args []string) []string {
	out := args[:1:1]
	for _, a := range args[1:] {
		switch strings.ToLower(a) {
		case "casual", "unrated":
			c.Casual = true
		case "rated":
			c.Casual = false
		default:
			out = append(out, a)
		}
	}
	return out
}

// newOption reads one option of new: vs (against, with), as, rules (ruleset), time.
func newOption(c *Command, key, val string) lang.Text {
	switch strings.ToLower(key) {
	case "vs", "against", "with":
		a := strings.Trim(val, "<>")
		if !address.MatchString(a) {
			return lang.Msg("%q is not a mail address", val)
		}
		c.Opponent = a
	case "as":
		v := strings.ToLower(val)
		if v != "white" && v != "black" && v != "random" && v != "red" {
			return lang.Msg("choose a colour with as white, as black or as random, not %q", val)
		}
		c.Color = v
	case "rules", "ruleset":
		c.Rules = strings.ToLower(val)
	case "time":
		c.Time = strings.ToLower(val)
	default:
		return lang.Msg("%q is not an option of new (vs, as, rules, time)", key)
	}
	return lang.Text{}
}

// parseGameOnly reads a command that takes nothing, or a game number.
func parseGameOnly(c *Command, args []string) lang.Text {
	if len(args) > 1 || (len(args) == 1 && !gameRef.MatchString(args[0])) {
		return lang.Msg("%s takes no arguments here (or a game number)", c.Verb)
	}
	if len(args) == 1 {
		c.Game, _ = parseGame(args[0])
	}
	return lang.Text{}
}

// parseDraw reads "draw", or "draw offer|accept|yes".
func parseDraw(_ *Command, args []string) lang.Text {
	if len(args) > 1 || len(args) == 1 && !slices.Contains([]string{"offer", "accept", "yes"}, strings.ToLower(args[0])) {
		return lang.Msg("write just draw (to offer one or accept the offer)")
	}
	return lang.Text{}
}

// parseMove reads "move MOVE".
func parseMove(c *Command, args []string) lang.Text {
	if len(args) == 0 {
		return lang.Msg("write the move after move, e.g. move e4")
	}
	if c.Arg = rules.TrimMoveNumber(strings.Join(args, " ")); c.Arg == "" {
		return lang.Msg("write the move after move, e.g. move e4")
	}
	c.Number = writtenNumber(strings.Join(args, " "))
	return lang.Text{}
}

// writtenNumber is the move number written before a move, the part
// rules.TrimMoveNumber reads past, as PGN writes it: "12." for the first
// mover's move, "12..." for the reply ("12…", "12. ..." and "12.." are
// replies too); "" for none, or for a number too large to be one.
func writtenNumber(text string) string {
	t := strings.TrimSpace(text)
	num := strings.TrimSpace(strings.TrimSuffix(t, rules.TrimMoveNumber(t)))
	end := strings.IndexFunc(num, func(r rune) bool { return r < '0' || r > '9' })
	if end <= 0 {
		return ""
	}
	n, err := strconv.Atoi(num[:end])
	if err != nil {
		return ""
	}
	if strings.TrimSpace(num[end:]) == "." {
		return strconv.Itoa(n) + "."
	}
	return strconv.Itoa(n) + "..."
}

// parseHelp reads "help [VARIANT]".
func parseHelp(c *Command, args []string) lang.Text {
	if len(args) > 1 {
		return lang.Msg("help takes at most a variant name")
	}
	if len(args) == 1 {
		c.Variant = strings.ToLower(args[0])
	}
	return lang.Text{}
}

// parseVacation reads "vacation N [days]".
func parseVacation(c *Command, args []string) lang.Text {
	if len(args) == 0 || len(args) > 2 || (len(args) == 2 && !strings.HasPrefix(strings.ToLower(args[1]), "day")) {
		return lang.Msg("write vacation N days, e.g. vacation 7 days")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || n > 366 {
		return lang.Msg("vacation needs a number of days from 1 to 366")
	}
	c.Days = n
	return lang.Text{}
}

// parseGameArg reads a command about one game: "observe GAME [off]", "audit GAME", "pgn GAME".
func parseGameArg(c *Command, args []string) lang.Text {
	if c.Verb == VerbObserve && len(args) == 2 && strings.EqualFold(args[1], "off") {
		c.Arg, args = "off", args[:1]
	}
	if len(args) != 1 {
		return lang.Msg("write %s GAME, with the game's number", c.Verb)
	}
	g, ok := parseGame(args[0])
	if !ok {
		return lang.Msg("%q is not a game number", args[0])
	}
	c.Game = g
	return lang.Text{}
}

// parseDigest reads "digest SCHEDULE" (the schedule is read when it runs: digests.go).
func parseDigest(c *Command, args []string) lang.Text {
	if len(args) == 0 {
		return lang.Msg("write digest HOUR (e.g. digest 8 or digest 18:30), a cron expression, or digest off")
	}
	c.Arg = strings.Join(args, " ")
	return lang.Text{}
}

// parseTimezone reads "timezone ZONE".
func parseTimezone(c *Command, args []string) lang.Text {
	if len(args) != 1 {
		return lang.Msg("write timezone ZONE, e.g. timezone Europe/Berlin")
	}
	c.Arg = args[0]
	return lang.Text{}
}

// parseIf reads a conditional line (ParseConditional).
func parseIf(c *Command, _ []string) lang.Text {
	pairs, err := ParseConditional(c.Line)
	if err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			return ue.msg
		}
		return lang.Raw(err.Error())
	}
	c.Cond = pairs
	return lang.Text{}
}

// parseConditionals reads "conditionals [off] [GAME]".
func parseConditionals(c *Command, args []string) lang.Text {
	for _, a := range args {
		switch {
		case strings.EqualFold(a, "off") && c.Arg == "":
			c.Arg = "off"
		case gameRef.MatchString(strings.Trim(a, "[]")) && c.Game == 0:
			c.Game, _ = parseGame(a)
		default:
			return lang.Msg("write conditionals to list your pending conditional moves, or conditionals off to clear them (a game number may follow)")
		}
	}
	return lang.Text{}
}

// parseAdjudicate reads "adjudicate GAME RESULT REASON".
func parseAdjudicate(c *Command, args []string) lang.Text {
	if len(args) < 3 {
		return lang.Msg("write adjudicate GAME RESULT REASON, e.g. adjudicate 12 1-0 white wins on material")
	}
	g, ok := parseGame(args[0])
	if !ok {
		return lang.Msg("%q is not a game number", args[0])
	}
	switch args[1] {
	case "1-0", "0-1", "1/2-1/2", "½-½":
	default:
		return lang.Msg("the result must be 1-0, 0-1 or 1/2-1/2, not %q", args[1])
	}
	c.Game, c.Result, c.Reason = g, strings.ReplaceAll(args[1], "½-½", "1/2-1/2"), strings.Join(args[2:], " ")
	return lang.Text{}
}

func parseGame(s string) (uint64, bool) {
	m := gameRef.FindStringSubmatch(strings.Trim(s, "[]"))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseUint(m[1], 10, 64)
	return n, err == nil && n > 0
}

// looksLikeMove says whether a line not starting with a command word is a
// move attempt: castling, Seachess's aircraft return ("Aa-A", S11, the one
// move without a square), or a short text (at most 4 words, at most 24
// characters) that contains a square name such as "e4" or "l12".
func looksLikeMove(s string) bool {
	if s == "" || len(s) > 24 || len(strings.Fields(s)) > 4 {
		return false
	}
	u := strings.ToUpper(strings.ReplaceAll(s, "0", "O"))
	if strings.HasPrefix(u, "O-O") {
		return true
	}
	if a := strings.Join(strings.Fields(u), ""); a == "AA-A" || a == "AAA" {
		return true
	}
	for i := 0; i+1 < len(s); i++ {
		c := s[i] | 0x20
		if c >= 'a' && c <= 'l' && s[i+1] >= '1' && s[i+1] <= '9' {
			return true
		}
	}
	return false
}
