package partners_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

var (
	ctx = context.Background()
	t0  = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
)

func newBox(t *testing.T) *secrets.Box {
	t.Helper()
	key, err := secrets.ParseKey(secrets.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	b, err := secrets.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// productionDoc is a production setup with an SFTP payer: secrets, an
// outbound connection, every kind of record.
const productionDoc = `{
  "profiles": [
    {"profileId": "clinic", "profileType": "local", "interchangeQualifier": "ZZ", "interchangeId": "CLINIC01"},
    {"profileId": "delta-dental", "profileType": "partner", "interchangeQualifier": "30", "interchangeId": "941234567", "applicationId": "DDCA"}
  ],
  "connections": [
    {"connectionId": "delta-sftp", "connectionType": "SFTP", "name": "Delta Dental SFTP",
     "settings": {"host": "sftp.example.com", "port": 22, "username": "clinic", "outboundPath": "/in", "inboundPath": "/out", "hostKey": "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"},
     "secrets": {"password": "hunter2-not-real"}}
  ],
  "partnerships": [
    {"partnershipId": "clinic_delta-dental", "localProfileId": "clinic", "partnerProfileId": "delta-dental", "connectionId": "delta-sftp",
     "inboundTransactions": [
       {"transactionSetIdentifier": "835", "guideId": "005010X221A1", "fragments": {"enabled": true, "keyName": "claim_payment_information_CLP_loop"},
        "acknowledgments": {"generate999": true, "generateTA1": true}},
       {"transactionSetIdentifier": "999", "guideId": "005010X231"}
     ],
     "outboundTransactions": [
       {"transactionSettingId": "delta-837d", "transactionSetIdentifier": "837", "guideId": "005010X224A2", "connectionId": "delta-sftp"}
     ]}
  ]
}`

func decode(t *testing.T, s string) partners.Document {
	t.Helper()
	doc, err := partners.DecodeDocument([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestApplyTwiceThenExport: the first apply creates every record, the
// second changes nothing, and the export applies as no change either;
// secret values never appear in the export, and the stored secret opens
// to what was sent.
func TestApplyTwiceThenExport(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		st := open(t)
		a, _ := storetest.Seed(t, st, store.ModeProduction)
		box := newBox(t)
		opts := partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeProduction, Secrets: box, Now: t0}
		res, err := partners.Apply(ctx, st, decode(t, productionDoc), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Changes) != 7 || res.Unchanged != 0 {
			t.Fatalf("first apply: %d changes, %d unchanged; want 7, 0: %v", len(res.Changes), res.Unchanged, res.Changes)
		}
		opts.Now = t0.Add(time.Hour)
		res, err = partners.Apply(ctx, st, decode(t, productionDoc), opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Changes) != 0 || res.Unchanged != 7 {
			t.Fatalf("second apply: changes %v, %d unchanged; want none, 7", res.Changes, res.Unchanged)
		}

		doc, err := partners.Export(ctx, st, a.ID, store.ModeProduction)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(doc)
		if strings.Contains(string(out), "hunter2") || strings.Contains(string(out), "v1:") {
			t.Fatalf("export shows a secret: %s", out)
		}
		if !strings.Contains(string(out), `"secrets":{"password":null}`) {
			t.Errorf("export does not name the stored secret: %s", out)
		}
		again, err := partners.DecodeDocument(out)
		if err != nil {
			t.Fatal(err)
		}
		res, err = partners.Apply(ctx, st, again, opts)
		if err != nil || len(res.Changes) != 0 {
			t.Fatalf("applying the export: %v, %v; want no change", res.Changes, err)
		}

		c, err := st.GetConnection(ctx, a.ID, store.ModeProduction, "delta-sftp")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(c.SealedSecrets, "hunter2") {
			t.Fatal("secret stored in clear")
		}
		got, err := partners.OpenSecrets(box, c)
		if err != nil || got["password"] != "hunter2-not-real" {
			t.Fatalf("OpenSecrets = %v, %v", got, err)
		}
		// The errata 005010X231 is stored as the guide's version, so the
		// inbound lookup by GS08 finds it.
		ship, err := st.FindPartnershipByInterchange(ctx, a.ID, store.ModeProduction, "30", "941234567      ", "ZZ", "CLINIC01       ")
		if err != nil {
			t.Fatal(err)
		}
		s, err := st.FindTransactionSetting(ctx, a.ID, store.ModeProduction, ship.ID, store.DirectionInbound, "999", "005010X231A1")
		if err != nil || s.GuideID != "005010X231A1" {
			t.Fatalf("999 setting: %+v, %v", s, err)
		}
		s, err = st.FindTransactionSetting(ctx, a.ID, store.ModeProduction, ship.ID, store.DirectionInbound, "835", "005010X221A1")
		if err != nil || !s.FragmentsEnabled || s.FragmentsBatchSize != 800 || !s.Ack999 || !s.AckTA1 {
			t.Fatalf("835 setting: %+v, %v", s, err)
		}

		// A changed secret is an update; the same value again is not.
		changed := strings.Replace(productionDoc, "hunter2-not-real", "correct-horse", 1)
		res, err = partners.Apply(ctx, st, decode(t, changed), opts)
		if err != nil || len(res.Changes) != 1 || res.Changes[0].String() != "update connection delta-sftp" {
			t.Fatalf("new password: %v, %v", res.Changes, err)
		}
		res, err = partners.Apply(ctx, st, decode(t, changed), opts)
		if err != nil || len(res.Changes) != 0 {
			t.Fatalf("same new password again: %v, %v", res.Changes, err)
		}
	})
}

// TestApplyRefuses: every kind of mistake is refused, naming the entry at
// fault, and nothing is written.
func TestApplyRefuses(t *testing.T) {
	st := storetest.SQLite(t)
	a, _ := storetest.Seed(t, st, store.ModeProduction)
	tests := []struct {
		name, doc  string
		mode       string
		path, want string
	}{
		{"unknown field", `{"profiles":[{"profileId":"x","profileType":"local","interchangeQualifier":"ZZ","interchangeId":"X1","isaId":"X"}]}`,
			"", "/profiles/0/isaId", `unknown field "isaId" in the entry with profileId "x"`},
		{"unknown nested field", strings.Replace(productionDoc, `"enabled": true`, `"enable": true`, 1),
			"", "/partnerships/0/inboundTransactions/0/fragments/enable", `unknown field "enable" in the entry with partnershipId "clinic_delta-dental", transactionSetIdentifier "835"`},
		{"unknown top-level field", `{"profile":[]}`, "", "/profile", `unknown field "profile"`},
		{"dangling partner profile", strings.Replace(productionDoc, `"partnerProfileId": "delta-dental"`, `"partnerProfileId": "delta"`, 1),
			"", "/partnerships/0/partnerProfileId", `partnership "clinic_delta-dental": partnerProfileId "delta" names no profile`},
		{"local profile as partner", strings.Replace(productionDoc, `"partnerProfileId": "delta-dental"`, `"partnerProfileId": "clinic"`, 1),
			"", "/partnerships/0/partnerProfileId", `is a local profile; it must be a partner profile`},
		{"dangling connection", strings.Replace(productionDoc, `"connectionId": "delta-sftp"}`, `"connectionId": "nope"}`, 1),
			"", "/partnerships/0/outboundTransactions/0/connectionId", `transaction setting "delta-837d": connectionId "nope" names no connection`},
		{"unknown guide", strings.Replace(productionDoc, `"005010X224A2"`, `"005010X999"`, 1),
			"", "/partnerships/0/outboundTransactions/0/guideId", `no guide "005010X999" for transaction set 837; known: 005010X224A2, `},
		{"fragments without key", strings.Replace(productionDoc, `, "keyName": "claim_payment_information_CLP_loop"`, ``, 1),
			"", "/partnerships/0/inboundTransactions/0/fragments/keyName", `keyName is empty; name the Guide JSON key of the repeated loop, e.g. claim_payment_information_CLP_loop`},
		{"key not in guide", strings.Replace(productionDoc, `claim_payment_information_CLP_loop`, `claim_CLM_loop`, 1),
			"", "/partnerships/0/inboundTransactions/0/fragments/keyName", `guide 005010X221A1 has no loop "claim_CLM_loop"`},
		{"SFTP in test mode", productionDoc, store.ModeTest, "/connections/0/connectionType", "test mode never reaches a payer"},
		{"unknown SFTP setting", strings.Replace(productionDoc, `"port": 22`, `"prot": 22`, 1),
			"", "/connections/0/settings/prot", `unknown setting "prot" for a SFTP connection; its settings are: host, port`},
		{"SFTP without a host key", strings.Replace(productionDoc, `, "hostKey": "SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"`, ``, 1),
			"", "/connections/0/settings/hostKey", `a SFTP connection needs the setting "hostKey"`},
		{"SFTP with a bad host key", strings.Replace(productionDoc, `"SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8"`, `"yes"`, 1),
			"", "/connections/0/settings/hostKey", `must pin the server`},
		{"secret of another type", strings.Replace(productionDoc, `"password":`, `"token":`, 1),
			"", "/connections/0/secrets/token", `has no secret "token"`},
		{"kept secret that was never stored", strings.Replace(productionDoc, `"hunter2-not-real"`, `null`, 1),
			"", "/connections/0/secrets/password", `is null (keep the stored value) but none is stored`},
		{"bad qualifier", strings.Replace(productionDoc, `"interchangeQualifier": "30"`, `"interchangeQualifier": "3"`, 1),
			"", "/profiles/1/interchangeQualifier", `profile "delta-dental": interchangeQualifier (ISA05/ISA07) must be 2 letters or digits`},
		{"ISA identity twice", strings.Replace(productionDoc, `"interchangeQualifier": "30", "interchangeId": "941234567"`, `"interchangeQualifier": "ZZ", "interchangeId": "CLINIC01"`, 1),
			"", "/profiles/1/interchangeId", `ISA ZZ/CLINIC01 is already profile "clinic"'s`},
		{"id twice", strings.Replace(productionDoc, `"profileId": "delta-dental"`, `"profileId": "clinic"`, 1),
			"", "/profiles/1", `profile "clinic" is listed twice (also at /profiles/0)`},
		{"acknowledgments on outbound", strings.Replace(productionDoc, `"connectionId": "delta-sftp"}`, `"connectionId": "delta-sftp", "acknowledgments": {"generate999": true, "generateTA1": false}}`, 1),
			"", "/partnerships/0/outboundTransactions/0/acknowledgments", "an outbound setting cannot ask for them"},
		{"wrong type", `{"profiles":[{"profileId":7}]}`, "", "/profiles/0/profileId", "must be a JSON string"},
		{"not an array", `{"profiles":{}}`, "", "/profiles", "must be a JSON array"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mode := tc.mode
			if mode == "" {
				mode = store.ModeProduction
			}
			box := newBox(t)
			doc, err := partners.DecodeDocument([]byte(tc.doc))
			if err == nil {
				_, err = partners.Apply(ctx, st, doc, partners.ApplyOptions{AccountID: a.ID, Mode: mode, Secrets: box, Now: t0})
			}
			var ve *partners.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error = %v, want a ValidationError", err)
			}
			found := false
			for _, p := range ve.Problems {
				found = found || (p.Path == tc.path && strings.Contains(p.Message, tc.want))
			}
			if !found {
				t.Fatalf("problems %+v\nwant one at %s containing %q", ve.Problems, tc.path, tc.want)
			}
			for _, m := range []string{store.ModeTest, store.ModeProduction} {
				if ps, _ := st.ListProfiles(ctx, a.ID, m); len(ps) != 0 {
					t.Fatalf("a refused document left %d %s profiles", len(ps), m)
				}
			}
		})
	}
}

// TestApplyWithoutSecretsKey: a document that gives a secret needs a key.
func TestApplyWithoutSecretsKey(t *testing.T) {
	st := storetest.SQLite(t)
	a, _ := storetest.Seed(t, st, store.ModeProduction)
	_, err := partners.Apply(ctx, st, decode(t, productionDoc), partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeProduction})
	var ve *partners.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(ve.Error(), "no secrets key configured") {
		t.Fatalf("error = %v, want the missing key named", err)
	}
}

// TestPruneAndDryRun: a dry run reports and writes nothing; prune deletes
// what the document no longer lists, dependents first.
func TestPruneAndDryRun(t *testing.T) {
	st := storetest.SQLite(t)
	a, _ := storetest.Seed(t, st, store.ModeProduction)
	opts := partners.ApplyOptions{AccountID: a.ID, Mode: store.ModeProduction, Secrets: newBox(t), Now: t0, DryRun: true}
	res, err := partners.Apply(ctx, st, decode(t, productionDoc), opts)
	if err != nil || len(res.Changes) != 7 {
		t.Fatalf("dry run: %v, %v", res.Changes, err)
	}
	if ps, _ := st.ListProfiles(ctx, a.ID, store.ModeProduction); len(ps) != 0 {
		t.Fatal("the dry run wrote")
	}
	opts.DryRun = false
	if _, err := partners.Apply(ctx, st, decode(t, productionDoc), opts); err != nil {
		t.Fatal(err)
	}
	// Without prune an empty document changes nothing; with it, it empties.
	if res, err := partners.Apply(ctx, st, partners.Document{}, opts); err != nil || len(res.Changes) != 0 {
		t.Fatalf("empty document without prune: %v, %v", res.Changes, err)
	}
	opts.Prune = true
	res, err = partners.Apply(ctx, st, partners.Document{}, opts)
	if err != nil || len(res.Changes) != 7 {
		t.Fatalf("prune: %v, %v", res.Changes, err)
	}
	for _, c := range res.Changes {
		if c.Action != "delete" {
			t.Errorf("prune did %s", c)
		}
	}
	if doc, _ := partners.Export(ctx, st, a.ID, store.ModeProduction); len(doc.Profiles)+len(doc.Partnerships)+len(doc.Connections) != 0 {
		t.Errorf("after prune: %+v", doc)
	}
}
