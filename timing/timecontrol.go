package timing

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
)

// Day is the unit of correspondence time controls.
const Day = 24 * time.Hour

// TimeControl is a game's clock: either a fixed time per move (Moves == 0)
// or ICCF style, Moves moves in Period with the unused remainder carried
// into the next period; Grace is added to every deadline before a player
// is judged late.
type TimeControl struct {
	Moves  int
	Period time.Duration
	Grace  time.Duration
}

var timeControlRE = regexp.MustCompile(`^(?:(\d{1,3})/)?(\d{1,3})d(?:\+(\d{1,2})d)?$`)

// ParseTimeControl reads "3d" (three days per move), "10/50d" (ten moves
// in fifty days, remainder carried) or either with a grace period "+2d".
func ParseTimeControl(s string) (TimeControl, error) {
	m := timeControlRE.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return TimeControl{}, lang.Fail("timing", "%q is not a time control: write days per move (3d), moves in days (10/50d), optionally with grace (+2d)", s)
	}
	var tc TimeControl
	days, _ := strconv.Atoi(m[2])
	if m[1] != "" {
		tc.Moves, _ = strconv.Atoi(m[1])
		if tc.Moves < 1 {
			return TimeControl{}, lang.Fail("timing", "%q: the number of moves must be at least 1", s)
		}
	}
	if days < 1 {
		return TimeControl{}, lang.Fail("timing", "%q: a time control needs at least one day", s)
	}
	tc.Period = time.Duration(days) * Day
	if m[3] != "" {
		g, _ := strconv.Atoi(m[3])
		tc.Grace = time.Duration(g) * Day
	}
	return tc, nil
}

// String writes the time control the way ParseTimeControl reads it.
func (tc TimeControl) String() string {
	s := fmt.Sprintf("%dd", tc.Period/Day)
	if tc.Moves > 0 {
		s = fmt.Sprintf("%d/%s", tc.Moves, s)
	}
	if tc.Grace > 0 {
		s += fmt.Sprintf("+%dd", tc.Grace/Day)
	}
	return s
}

// Describe phrases the time control for players, in English.
func (tc TimeControl) Describe() string { return tc.DescribeIn(lang.English) }

// DescribeIn phrases the time control for players in a language ("3 days
// per move", "3 Tage pro Zug").
func (tc TimeControl) DescribeIn(l lang.Lang) string {
	var s string
	if tc.Moves == 0 {
		s = l.Tr("%s per move", days(tc.Period, l))
	} else {
		s = l.Tr("%d moves in %s, unused time carried over", tc.Moves, days(tc.Period, l))
	}
	if tc.Grace > 0 {
		s = l.Tr("%s, plus %s grace", s, days(tc.Grace, l))
	}
	return s
}

func days(d time.Duration, l lang.Lang) string {
	n := int(d / Day)
	if n == 1 {
		return l.Tr("1 day")
	}
	return l.Tr("%d days", n)
}

// Clock is one side's clock state.
type Clock struct {
	// Budget is the time left in the current period (ICCF) or per move.
	Budget time.Duration `json:"budget"`
	// MovesLeft counts the moves still due in the current period (ICCF).
	MovesLeft int `json:"moves_left,omitempty"`
}

// NewClock is a side's clock at the start of a game.
func (tc TimeControl) NewClock() Clock {
	return Clock{Budget: tc.Period, MovesLeft: tc.Moves}
}

// Deadline is when a side whose turn began at start must have moved.
func (tc TimeControl) Deadline(c Clock, start time.Time) time.Time {
	return start.Add(c.Budget + tc.Grace).UTC()
}

// Spend charges a move that took used and returns the clock for the side's
// next turn. Per-move controls start afresh; ICCF controls carry the rest.
func (tc TimeControl) Spend(c Clock, used time.Duration) Clock {
	if tc.Moves == 0 {
		return Clock{Budget: tc.Period}
	}
	c.Budget -= used
	if c.Budget < 0 {
		c.Budget = 0 // moved within the grace period
	}
	c.MovesLeft--
	if c.MovesLeft <= 0 {
		c.Budget += tc.Period
		c.MovesLeft = tc.Moves
	}
	return c
}
