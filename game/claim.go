package game

import (
	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
)

// claim lets the opponent of a side whose deadline passed win on time
// (TimeoutNotify policy).
func (h *handling) claim(l *loaded, side int) error {
	if l.meta.Phase != phasePlay {
		return l.notPlaying()
	}
	if l.meta.TimedOut != 1-side {
		return userf("there is nothing to claim: %s's deadline has not passed", lang.Key(l.sides()[1-side]))
	}
	return h.finish(l, record.LostOnTime(l.sides(), rules.Side(1-side), true))
}
