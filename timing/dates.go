package timing

import (
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/lang"
)

// FormatDate writes an instant as a mail shows it to a reader of a
// language: layout is time.Format's, in English ("Mon 2 Jan 2006 15:04
// MST"); another language writes the weekday, month and zone with the
// words of its catalog (package lang), and German the day with its dot
// ("Mo 2. Jan. 2026 15:04 MEZ").
func FormatDate(t time.Time, layout string, l lang.Lang) string {
	if l == lang.English || l == "" {
		return t.Format(layout)
	}
	dayDot := " 2 "
	if l == lang.German {
		dayDot = " 2. "
	}
	r := strings.NewReplacer("Mon", "{W}", "Jan", "{M}", "MST", "{Z}", " 2 ", dayDot)
	s := t.Format(r.Replace(layout))
	zone, _ := t.Zone()
	if zone == "CET" || zone == "CEST" {
		zone = l.Word(zone)
	}
	return strings.NewReplacer("{W}", l.Word(t.Weekday().String()[:3]), "{M}", l.Word(t.Month().String()[:3]), "{Z}", zone).Replace(s)
}

// The weekdays, months and zones a date shows, looked up as words.
var _ = lang.Keys("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat",
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "CET", "CEST")
