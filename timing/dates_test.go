package timing

import (
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/lang"
)

func TestFormatDate(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	winter := time.Date(2026, 1, 2, 15, 4, 0, 0, berlin)
	summer := time.Date(2026, 5, 3, 8, 30, 0, 0, berlin)
	for _, tt := range []struct {
		name   string
		t      time.Time
		layout string
		l      lang.Lang
		want   string
	}{
		{"English, winter", winter, "Mon 2 Jan 2006 15:04 MST", lang.English, "Fri 2 Jan 2026 15:04 CET"},
		{"German, winter", winter, "Mon 2 Jan 2006 15:04 MST", lang.German, "Fr 2. Jan. 2026 15:04 MEZ"},
		{"German, summer", summer, "Mon 2 Jan 2006 15:04 MST", lang.German, "So 3. Mai 2026 08:30 MESZ"},
		{"German, no year", summer, "Mon 2 Jan 15:04 MST", lang.German, "So 3. Mai 08:30 MESZ"},
		{"German, time only", winter, "15:04 MST", lang.German, "15:04 MEZ"},
		{"German, UTC", winter.UTC(), "Mon 2 Jan 2006 15:04 MST", lang.German, "Fr 2. Jan. 2026 14:04 UTC"},
		{"German, March", time.Date(2026, 3, 16, 9, 0, 0, 0, time.UTC), "Mon 2 Jan 2006 15:04 MST", lang.German, "Mo 16. März 2026 09:00 UTC"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := FormatDate(tt.t, tt.layout, tt.l); got != tt.want {
				t.Errorf("FormatDate(%v, %q, %s) = %q, want %q", tt.t, tt.layout, tt.l, got, tt.want)
			}
		})
	}
}

func TestDescribeIn(t *testing.T) {
	for _, tt := range []struct {
		spec   string
		en, de string
	}{
		{"3d", "3 days per move", "3 Tage pro Zug"},
		{"1d", "1 day per move", "1 Tag pro Zug"},
		{"10/50d+2d", "10 moves in 50 days, unused time carried over, plus 2 days grace", "10 Züge pro 50 Tage, ungenutzte Zeit wird übertragen, dazu 2 Tage Karenzzeit"},
	} {
		t.Run(tt.spec, func(t *testing.T) {
			tc, err := ParseTimeControl(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.Describe(); got != tt.en || tc.DescribeIn(lang.English) != tt.en {
				t.Errorf("Describe() = %q, want %q", got, tt.en)
			}
			if got := tc.DescribeIn(lang.German); got != tt.de {
				t.Errorf("DescribeIn(German) = %q, want %q", got, tt.de)
			}
		})
	}
	if m := lang.Missed(); len(m) > 0 {
		t.Errorf("messages missing from a catalog: %q", m)
	}
}
