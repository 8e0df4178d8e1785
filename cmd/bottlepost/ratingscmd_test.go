package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bottlepost/bottlepost/rating"
)

// TestCLIRatings: bottlepost ratings lists a pool's players from the
// database (fool's mate: Black won, both new players), as a table and as
// JSON with the unrounded numbers package rating computes for one game
// between new players; --rebuild finds the stored ratings equal to their
// recomputation; usage errors and an unknown pool exit 2.
func TestCLIRatings(t *testing.T) {
	dir := finishedGame(t)
	won := rating.Period(rating.New(), []rating.Game{{Opponent: rating.New(), Score: 1}})
	lost := rating.Period(rating.New(), []rating.Game{{Opponent: rating.New(), Score: 0}})

	code, out, stderr := runCLI("ratings", "chess", "--data", dir)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("ratings chess: exit %d, %q %q", code, out, stderr)
	}
	for _, want := range []string{"rank", "name", "address", "rating", "RD", "volatility", "games", "wins", "draws", "losses", "last rated game"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the header lacks %q: %q", want, lines[0])
		}
	}
	if f := strings.Fields(lines[1]); len(f) < 4 || f[0] != "1" || !strings.Contains(lines[1], "b@y.test") || !strings.Contains(lines[1], "1662.3") {
		t.Errorf("first row %q: want b@y.test, 1662.3", lines[1])
	}
	if !strings.Contains(lines[2], "a@x.test") || !strings.Contains(lines[2], "1337.7") {
		t.Errorf("second row %q: want a@x.test, 1337.7", lines[2])
	}

	code, out, stderr = runCLI("ratings", "--json", "chess", "--data", dir)
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list) != 2 {
		t.Fatalf("ratings --json: exit %d, %v: %q %q", code, err, out, stderr)
	}
	for _, key := range []string{"player", "name", "rating", "rd", "volatility", "games"} {
		if _, ok := list[0][key]; !ok {
			t.Errorf("the JSON lacks %q: %v", key, list[0])
		}
	}
	for i, want := range []struct {
		player string
		r      rating.Rating
	}{{"b@y.test", won}, {"a@x.test", lost}} {
		got := list[i]
		if got["player"] != want.player || got["rating"] != want.r.Rating || got["rd"] != want.r.RD || got["volatility"] != want.r.Volatility || got["games"] != 1.0 {
			t.Errorf("row %d: %v, want %s at %v", i, got, want.player, want.r)
		}
		if strings.Contains(got["name"].(string), "@") {
			t.Errorf("row %d's name is an address: %v", i, got["name"])
		}
	}
	if code, out, _ := runCLI("ratings", "baltic/sc2022", "--json", "--data", dir); code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("an empty pool as JSON: exit %d, %q", code, out)
	}
	if code, out, _ := runCLI("ratings", "battle", "--data", dir); code != 0 || !strings.Contains(out, "no rated player in battle yet") {
		t.Errorf("an empty pool: exit %d, %q", code, out)
	}

	code, out, stderr = runCLI("ratings", "--rebuild", "--data", dir)
	if code != 0 || !strings.Contains(out, "the stored ratings equal their recomputation from the archive (1 rated games, 2 standings)") {
		t.Errorf("ratings --rebuild: exit %d, %q %q", code, out, stderr)
	}

	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"no pool", []string{"ratings", "--data", dir}, "usage: bottlepost ratings VARIANT"},
		{"two pools", []string{"ratings", "chess", "battle", "--data", dir}, "usage:"},
		{"a pool and --rebuild", []string{"ratings", "chess", "--rebuild", "--data", dir}, "usage:"},
		{"--rebuild --json", []string{"ratings", "--rebuild", "--json", "--data", dir}, "usage:"},
		{"an unknown pool", []string{"ratings", "go", "--data", dir}, `no such rating pool: "go"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _, stderr := runCLI(tc.args...); code != 2 || !strings.Contains(stderr, tc.says) {
				t.Errorf("exit %d, %q; want 2 and %q", code, stderr, tc.says)
			}
		})
	}
}
