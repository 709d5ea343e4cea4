package delivery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// Issue 24's "done when", end to end for both claim types: the contract's
// example claim, as published (only its <YOUR-CLAIM-ID> and
// <YOUR-SUBMITTER-ID> placeholders filled, from the raw sibling), answers
// 200 to a test key; the 837 that goes out carries, in order, every
// segment of the contract's raw X12 example from BHT to SE, except the
// deliberate differences below (docs/api/professional-claims.md and
// institutional-claims.md give the guide rule of each); it passes our
// 005010X222A1 / X223A3 validator; and the mock payer's 999 and 277CA
// (STC A2:20, accepted) come back as inbound transactions with their
// events.
func TestContractExamplesThroughTheWholeLoop(t *testing.T) {
	for _, tc := range []struct {
		name, dir, guide, route string
		// published segment → what we write instead
		differs map[string]string
	}{
		{"professional", "professional", claims.Version837P, claims.ProfessionalRoute, map[string]string{
			"PER*IC**TE*5552223333":      "PER*IC*Test Data Health Services, Inc.*TE*5552223333", // 1000A PER02 is required (X222A1)
			"NM1*40*2*Cigna*****46*6400": "NM1*40*2*Cigna*****46*62308",                          // 6400 is an alias of Cigna's primary id
			"NM1*PR*2*Cigna*****PI*6400": "NM1*PR*2*Cigna*****PI*62308",
			"NM1*77*2*Smith Associates":  "NM1*77*2*Smith Associates*****XX*1999999984", // the facility NPI the request sends
		}},
		{"institutional", "institutional", claims.Version837I, claims.InstitutionalRoute, map[string]string{
			"PER*IC**TE*2225551234": "PER*IC*Test Facility*TE*2225551234", // 1000A PER02 is required (X223A3)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			body, err := os.ReadFile("../claims/testdata/" + tc.dir + "/example.json")
			must(t, err)
			sub := claims.Submission{Caller: claims.Caller{AccountID: w.account, Mode: store.ModeTest}, Body: body, Route: tc.route}
			var res *claims.Result
			if tc.dir == "professional" {
				var r claims.ProfessionalRequest
				must(t, json.Unmarshal(body, &r))
				res, err = w.claims.SubmitProfessional(context.Background(), sub, &r)
			} else {
				var r claims.InstitutionalRequest
				must(t, json.Unmarshal(body, &r))
				res, err = w.claims.SubmitInstitutional(context.Background(), sub, &r)
			}
			must(t, err)
			if res.Status != 200 || res.Response.Status != "SUCCESS" {
				t.Fatalf("submit: %d %s", res.Status, res.Body)
			}
			evs := w.waitEvents(6)
			if got := types(evs); !strings.Contains(got, "file.delivered.v2") || strings.Count(got, "file.processed.v2") != 2 ||
				strings.Count(got, "transaction.processed.v2") != 3 {
				t.Fatalf("events: %s", got)
			}
			claim := mustClaim(t, w, res)
			e, err := w.st.GetExecution(context.Background(), w.account, claim.ExecutionID)
			must(t, err)
			sent := w.read(e.Input.Key)
			ours := segments(sent)
			var raw struct{ X12 string }
			b, err := os.ReadFile("../claims/testdata/" + tc.dir + "/raw-example.json")
			must(t, err)
			must(t, json.Unmarshal(b, &raw))
			published := segments(strings.ReplaceAll(raw.X12, ">", ":"))
			at := indexOf(ours, "BHT", 0)
			for _, p := range published[indexOf(published, "BHT", 0)+1 : indexOf(published, "SE", 0)] {
				want := p
				if d, ok := tc.differs[p]; ok {
					want = d
				}
				i := indexOfSegment(ours, want, at)
				if i < 0 {
					t.Errorf("the %s sent lacks the published segment %s (after %s)", tc.guide, want, ours[at])
					continue
				}
				at = i
			}
			rep, err := guide.Validate(bytes.NewReader([]byte(sent)), guide.Options{})
			must(t, err)
			for _, f := range rep.All() {
				if f.Severity >= x12.Warning {
					t.Errorf("our validator: %s", f)
				}
			}
			if !strings.Contains(sent, "*"+tc.guide+"~") {
				t.Errorf("not a %s: %.200s", tc.guide, sent)
			}
			for set, want := range map[string]string{"999": "~IK5*A~", "277": "~STC*A2:20*"} {
				txs, _, err := w.st.ListTransactions(context.Background(), w.account, store.TransactionFilter{TransactionSetID: set})
				must(t, err)
				if len(txs) != 1 || txs[0].Direction != store.DirectionInbound || !strings.Contains(w.read(txs[0].Input.Key), want) {
					t.Errorf("inbound %s: %d transactions, want one holding %s", set, len(txs), want)
				}
			}
		})
	}
}

func segments(x string) []string {
	var out []string
	for _, s := range strings.Split(x, "~") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func indexOf(segs []string, id string, from int) int {
	for i := from; i < len(segs); i++ {
		if strings.HasPrefix(segs[i], id+"*") {
			return i
		}
	}
	return -1
}

func indexOfSegment(segs []string, seg string, from int) int {
	for i := from; i < len(segs); i++ {
		if segs[i] == seg {
			return i
		}
	}
	return -1
}
