package game

import (
	"testing"

	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// BenchmarkRenderUpdateMail measures composing one update mail (the news of
// a move with the board, text and HTML table, the record's last moves and
// the receipt) for each variant: the CPU a move's mails cost on top of the
// commit. The store is only read. ".../board-as-text" draws the HTML part's
// board as a <pre> instead of the table, for comparison.
func BenchmarkRenderUpdateMail(b *testing.B) {
	for _, v := range variants.All() {
		for _, plain := range []bool{false, true} {
			name := v.ID()
			if plain {
				name += "/board-as-text"
			}
			b.Run(name, func(b *testing.B) {
				f := newFixture(b, Config{})
				pa := f.personal(alice)
				f.send(alice, pa, "new", "new "+v.ID()+" vs "+bob+" as white")
				f.reply(bob, "accept")
				b.ReportAllocs()
				b.ResetTimer()
				var size int
				for range b.N {
					err := f.st.View(func(tx *store.Tx) error {
						h := f.svc.internal(tx, f.now)
						l, err := h.game(1)
						if err != nil {
							return err
						}
						d := h.draft(bob, l, "update")
						d.board, d.lastMoves, d.plainBoard = true, true, plain
						data, _, err := f.svc.newRenderer(tx, f.now, &h.clocks).render(d)
						size = len(data)
						return err
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(size), "bytes/mail")
			})
		}
	}
}
