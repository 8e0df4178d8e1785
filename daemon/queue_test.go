package daemon

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
)

// The store's Queue removes accepted mails, and marking one that has
// already left the outbox is no error (the Outbox retries marks whose
// commit reported failure), while the others in the same call still leave.
func TestStoreQueueMarkSentSkipsMailAlreadyGone(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "bottlepost.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	t0 := time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC)
	var ids []uint64
	for range 3 {
		m := &store.Mail{From: "games@example.org", To: []string{"alice@example.org"}, Data: []byte("Subject: x\r\n\r\nx\r\n"), Created: t0}
		if err := st.Update(func(tx *store.Tx) error { return tx.Enqueue(m) }); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	q := storeQueue{st}
	if err := q.MarkSent(ids[:1]); err != nil {
		t.Fatalf("MarkSent(%d) = %v", ids[0], err)
	}
	if err := q.MarkSent(ids); err != nil {
		t.Fatalf("MarkSent with a mail already gone = %v, want nil", err)
	}
	due, err := q.Due(t0.Add(time.Hour), 0)
	if err != nil || len(due) != 0 {
		t.Fatalf("Due after marking all = %v, %v; want none", due, err)
	}
}
