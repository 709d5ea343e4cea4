package connections

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Connections live in two places: the --payers file (the operator's, for
// every account: eligibility and claim status routes) and an account's
// stored partner connections (per account and mode: claims, files, and
// claims routes). Both are one type here: FromStored makes a Set of the
// stored ones, with the same Definition, the same clients (UpstreamClient,
// CAQHClient, SFTPClient) and the same Test, so `clearhouse connections
// test` and the transports read one model whichever place holds it.

// storedSettings are the settings of every stored connection type, named
// as partners stores them (package partners' connection schemas).
type storedSettings struct {
	URL            string   `json:"url"`
	CoreURL        string   `json:"coreUrl"`
	Timeout        string   `json:"timeout"`
	Transactions   []string `json:"transactions"`
	SenderID       string   `json:"senderId"`
	ReceiverID     string   `json:"receiverId"`
	Host           string   `json:"host"`
	Port           int      `json:"port"`
	Username       string   `json:"username"`
	HostKey        string   `json:"hostKey"`
	InboundPath    string   `json:"inboundPath"`
	OutboundPath   string   `json:"outboundPath"`
	AuthorizedKeys []string `json:"authorizedKeys"`
}

// FromStored is the Set of an account's stored connections (one account
// and mode: their secrets open only under their own record), with their
// secrets opened with box. Types with nothing to dial (MOCK, HTTP_UPLOAD,
// SFTP_SERVER, DIRECTORY) are kept, so Test can say so.
func FromStored(conns []store.Connection, box *secrets.Box) (*Set, error) {
	s := &Set{defs: map[string]Definition{}, secrets: map[string]string{}}
	for _, c := range conns {
		d, opened, err := definitionOf(c, box)
		if err != nil {
			return nil, fmt.Errorf("connection %s: %w", c.ID, err)
		}
		for field, v := range opened {
			s.secrets[SealContext(d.ID, field)] = v
		}
		s.defs[d.ID] = d
	}
	return s, nil
}

// definitionOf maps one stored connection to a Definition, with its opened
// secrets by Definition field.
func definitionOf(c store.Connection, box *secrets.Box) (Definition, map[string]string, error) {
	var st storedSettings
	if len(c.Settings) > 0 {
		if err := json.Unmarshal(c.Settings, &st); err != nil {
			return Definition{}, nil, fmt.Errorf("settings: %w", err)
		}
	}
	opened := map[string]string{}
	if c.SealedSecrets != "" {
		if !box.Configured() {
			return Definition{}, nil, fmt.Errorf("it has secrets: %w", secrets.ErrNoKey)
		}
		sec, err := partners.OpenSecrets(box, c)
		if err != nil {
			return Definition{}, nil, err
		}
		opened = sec
	}
	d := Definition{ID: c.ID, Type: Type(c.Type), URL: st.URL, CoreURL: st.CoreURL, Transactions: st.Transactions,
		SenderID: st.SenderID, ReceiverID: st.ReceiverID, Host: st.Host, Port: st.Port, Username: st.Username,
		HostKey: st.HostKey, InboundDir: st.InboundPath, OutboundDir: st.OutboundPath}
	if v, err := time.ParseDuration(st.Timeout); err == nil {
		d.Timeout = Duration(v)
	}
	out := map[string]string{}
	// A stored CAQH CORE connection keeps its username and client
	// certificate among the secrets.
	if v := opened["username"]; v != "" {
		d.Username = v
	}
	d.ClientCertificate = opened["clientCertificate"]
	for _, f := range []string{FieldPassword, FieldClientKey, FieldPrivateKey, FieldAPIKey} {
		if v := opened[f]; v != "" {
			out[f] = v
			// The Definition says the field is set; its value is only in
			// the Set (never a sealed text of the file's kind).
			switch f {
			case FieldPassword:
				d.Password = "(stored)"
			case FieldClientKey:
				d.ClientKey = "(stored)"
			case FieldPrivateKey:
				d.PrivateKey = "(stored)"
			case FieldAPIKey:
				d.APIKey = "(stored)"
			}
		}
	}
	return d, out, nil
}
