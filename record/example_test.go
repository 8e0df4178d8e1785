package record_test

import (
	"fmt"
	"os"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// ExampleVerify checks a game's record, as a player saved it from the final mail, against
// the receipt that mail quoted.
func ExampleVerify() {
	f, err := os.Open("testdata/verify-example.pgn")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	receipt, err := store.ParseReceipt("14:e405f3067ca27fe94a90bd1f05b8fa069074bd3d0a21121a5faf841c10187262")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := record.Verify(f, receipt)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	fmt.Printf("game %d, %s: %s v %s, %s (%s)\n", res.Game, res.Variant, res.Players[0], res.Players[1], res.Result, res.Termination)
	fmt.Println(res.Anchoring())
	// Output:
	// game 1, Seachess: alice v bob, 1-0 (White wins: Black resigned)
	// anchored by your receipt 14:e405f3067ca27fe94a90bd1f05b8fa069074bd3d0a21121a5faf841c10187262: all 14 records are the ones you were sent
}
