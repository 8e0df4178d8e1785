package mailer

import (
	"testing"
	"time"
)

// The waits double from first to the ceiling, never above it, each less
// at most a tenth; and the jitter spreads them (many waits for the same
// failure are not all the same).
func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		name    string
		b       backoff
		n       int
		nominal time.Duration
	}{
		{"first", backoff{time.Second, time.Minute}, 1, time.Second},
		{"not yet counted", backoff{time.Second, time.Minute}, 0, time.Second},
		{"doubled", backoff{time.Second, time.Minute}, 3, 4 * time.Second},
		{"at the ceiling", backoff{time.Second, time.Minute}, 7, time.Minute},
		{"far past it", backoff{time.Second, time.Minute}, 1000, time.Minute},
		{"a ceiling below first", backoff{time.Minute, time.Second}, 1, time.Second},
		{"a ceiling between doublings", backoff{time.Minute, 3 * time.Minute}, 3, 3 * time.Minute},
		{"no wait", backoff{0, time.Minute}, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[time.Duration]bool{}
			for range 200 {
				w := tc.b.wait(tc.n)
				if w > tc.nominal || w < tc.nominal-tc.nominal/10 {
					t.Fatalf("wait(%d) = %v, want within a tenth below %v", tc.n, w, tc.nominal)
				}
				seen[w] = true
			}
			if tc.nominal >= time.Second && len(seen) < 10 {
				t.Errorf("200 waits of %v took %d values: no jitter", tc.nominal, len(seen))
			}
		})
	}
}
