package game

import (
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/timing"
)

func TestTimeoutNotifyPolicy(t *testing.T) {
	f := newFixture(t, Config{TimeoutPolicy: TimeoutNotify})
	startTimed(t, f, "1d")
	f.reply(bob, "claim")
	f.mustContain(f.last(bob), "there is nothing to claim")
	f.now = f.now.Add(timing.Day + time.Minute)
	f.tick()
	f.mustContain(f.last(bob), "White's deadline has passed. Reply claim to win on time")
	f.mustContain(f.last(alice), "Your deadline has passed")
	// The late move still counts if it comes first; then the claim is void.
	f.reply(alice, "e4")
	f.reply(alice, "claim")
	f.mustContain(f.last(alice), "there is nothing to claim")
	f.now = f.now.Add(timing.Day + time.Minute)
	f.tick()
	f.reply(alice, "claim")
	f.mustContain(f.last(alice), "White wins: Black lost on time (claimed)")
}
