package store

import (
	"testing"
	"time"
)

// RecordAttempt sets the count and the next try as told, keeps the last
// reason when told none, makes the mail due at once with the zero time,
// and refuses a mail no longer queued.
func TestRecordAttempt(t *testing.T) {
	st := openTest(t, t.TempDir())
	var id uint64
	if err := st.Update(func(tx *Tx) error {
		m := &Mail{From: "games@example.org", To: []string{"p@example.org"}, Data: []byte("Subject: x\r\n\r\nx\r\n"), Created: t0}
		err := tx.Enqueue(m)
		id = m.ID
		return err
	}); err != nil {
		t.Fatal(err)
	}
	mail := func() Mail {
		t.Helper()
		var ms []Mail
		st.View(func(tx *Tx) error { var err error; ms, err = tx.PendingMail(t0.AddDate(1, 0, 0), 0); return err })
		if len(ms) != 1 {
			t.Fatalf("%d mails queued, want 1", len(ms))
		}
		return ms[0]
	}
	for _, step := range []struct {
		name     string
		attempts uint32
		reason   string
		next     time.Time
		want     Mail
	}{
		{"before sending", 1, "", t0.Add(time.Minute), Mail{Attempts: 1, NextTry: t0.Add(time.Minute)}},
		{"refused", 1, "451 try later", t0.Add(2 * time.Minute), Mail{Attempts: 1, LastError: "451 try later", NextTry: t0.Add(2 * time.Minute)}},
		{"before the next", 2, "", t0.Add(time.Hour), Mail{Attempts: 2, LastError: "451 try later", NextTry: t0.Add(time.Hour)}},
		{"never reached: given back", 1, "", time.Time{}, Mail{Attempts: 1, LastError: "451 try later"}},
	} {
		if err := st.Update(func(tx *Tx) error { return tx.RecordAttempt(id, step.attempts, step.reason, step.next) }); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		m := mail()
		if m.Attempts != step.want.Attempts || m.LastError != step.want.LastError || !m.NextTry.Equal(step.want.NextTry) || m.NextTry.IsZero() != step.want.NextTry.IsZero() {
			t.Errorf("%s: attempts %d, reason %q, next %v; want %d, %q, %v", step.name, m.Attempts, m.LastError, m.NextTry,
				step.want.Attempts, step.want.LastError, step.want.NextTry)
		}
	}
	err := st.Update(func(tx *Tx) error {
		if err := tx.MarkSent(id); err != nil {
			return err
		}
		return tx.RecordAttempt(id, 3, "", t0)
	})
	wantErr(t, err, ErrNotFound)
}
