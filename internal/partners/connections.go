package partners

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// settingKind is the JSON type of a connection setting.
type settingKind int

const (
	kindString settingKind = iota
	kindInt
	kindStrings
)

type settingField struct {
	name     string
	kind     settingKind
	required bool
	check    func(v any) string // "" when the value is fine
}

// connectionSchema is what one connection type accepts. Transports read
// the same names (add a field here before reading it there).
type connectionSchema struct {
	settings []settingField
	secrets  []string
	// oneSecretOf: at least one of these secrets must be stored.
	oneSecretOf []string
	// testMode: whether test mode may use the type. Test keys never reach
	// a payer, so types that reach out to one are production only.
	testMode bool
	// productionMode: MOCK is test mode only.
	productionMode bool
	// testRefusal says why test mode may not use the type, when the
	// reason is not that it reaches a payer.
	testRefusal string
	about       string
}

var connectionSchemas = map[string]connectionSchema{
	store.ConnectionSFTP: {
		about: "a remote SFTP server Clearhouse logs in to",
		settings: []settingField{{name: "host", required: true, check: hostname}, {name: "port", kind: kindInt, check: port},
			{name: "username", required: true}, {name: "inboundPath"}, {name: "outboundPath"},
			{name: "hostKey", required: true, check: hostKey}},
		secrets: []string{"password", "privateKey"}, oneSecretOf: []string{"password", "privateKey"},
		productionMode: true,
	},
	// The partner's folders are its SFTP user's inbound/ and outbound/ (no
	// path settings: a tenant never names a server path); the username
	// must be an SFTP user of the connection's own account and mode
	// (checkSFTPUsers).
	store.ConnectionSFTPServer: {
		about: "Clearhouse's own SFTP server, where the partner logs in",
		settings: []settingField{{name: "username", required: true, check: nonEmpty},
			{name: "authorizedKeys", kind: kindStrings}},
		secrets: []string{"password"}, testMode: true, productionMode: true,
	},
	// Folders relative to the account's own folder under the operator's
	// directory root (package tenantdir); off unless the operator set one.
	store.ConnectionDirectory: {
		about: "a folder under the server's directory root: files dropped in inboundPath are picked up, outbound files are written to outboundPath",
		settings: []settingField{{name: "inboundPath", check: relativeFolder}, {name: "outboundPath", check: relativeFolder},
			{name: "pollInterval", check: nonEmpty}},
		productionMode: true,
		testRefusal:    "test keys never reach a folder on the server; set this connection up in production mode",
	},
	store.ConnectionHTTPUpload: {
		about:    "files POSTed to /2023-08-01/files/inbound",
		testMode: true, productionMode: true,
	},
	store.ConnectionMock: {
		about:    "the test-mode mock payers",
		testMode: true,
	},
	// The same fields as a CLEARINGHOUSE_API connection of the --payers
	// file (package connections): both become one upstream.Client.
	// webhookSecret is the signing secret of the upstream's webhook events
	// (package upstream receives them).
	store.ConnectionClearinghouseAPI: {
		about: "another clearinghouse's public API (the hosted API's contract, or another Clearhouse): claims go to its raw-x12-submission endpoints with your account's key there",
		settings: []settingField{{name: "url", required: true, check: webURL}, {name: "coreUrl", check: webURL},
			{name: "timeout", check: nonEmpty}, {name: "transactions", kind: kindStrings}},
		secrets: []string{"apiKey", "webhookSecret"}, oneSecretOf: []string{"apiKey"},
		productionMode: true,
	},
	store.ConnectionCAQHCORE: {
		about: "a payer's CAQH CORE SOAP endpoint (HTTPS)",
		settings: []settingField{{name: "url", required: true, check: httpsURL}, {name: "senderId"}, {name: "receiverId"},
			{name: "timeout", check: nonEmpty}},
		secrets:        []string{"username", "password", "clientCertificate", "clientKey"},
		productionMode: true,
	},
}

func hostname(v any) string {
	s := v.(string)
	if s == "" || strings.ContainsAny(s, "/@ ") {
		return "must be a host name or IP address, without scheme, user or path"
	}
	return ""
}

func port(v any) string {
	if n := v.(int64); n < 1 || n > 65535 {
		return "must be a TCP port, 1 to 65535"
	}
	return ""
}

// hostKey pins the server: its public key as ssh-keyscan prints it
// ("ssh-ed25519 AAAA…") or its fingerprint ("SHA256:…"). An unknown host
// key is never trusted, so the setting is required.
func hostKey(v any) string {
	s := strings.TrimSpace(v.(string))
	if strings.HasPrefix(s, "SHA256:") && len(s) > len("SHA256:") {
		return ""
	}
	fields := strings.Fields(s)
	if len(fields) >= 2 && (strings.HasPrefix(fields[0], "ssh-") || strings.HasPrefix(fields[0], "ecdsa-") ||
		strings.HasPrefix(fields[0], "sk-")) && strings.HasPrefix(fields[1], "AAAA") {
		return ""
	}
	return `must pin the server: its public key as ssh-keyscan prints it ("ssh-ed25519 AAAA…") or its fingerprint ("SHA256:…")`
}

func relativeFolder(v any) string { return tenantdir.CheckPath(v.(string)) }

func nonEmpty(v any) string {
	if v.(string) == "" {
		return "must not be empty"
	}
	return ""
}

// webURL is an upstream's API base: https, or http for a server on the
// same network (the SSRF guard still decides what may be dialled).
func webURL(v any) string {
	u, err := url.Parse(v.(string))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" {
		return "must be the upstream's https:// base URL, without credentials or query (the key goes in the secret apiKey)"
	}
	return ""
}

func httpsURL(v any) string {
	u, err := url.Parse(v.(string))
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return "must be an https:// URL"
	}
	return ""
}

// MaxSecretBytes bounds one secret value (a private key fits easily).
const MaxSecretBytes = 64 << 10

// checkConnectionSettings validates settings against the type's schema and
// returns them in canonical form (sorted keys, compact), "{}" when empty.
func checkConnectionSettings(typ string, raw json.RawMessage, path, entry string, ps *problems) []byte {
	schema := connectionSchemas[typ]
	known := make([]string, 0, len(schema.settings))
	for _, f := range schema.settings {
		known = append(known, f.name)
	}
	settings := map[string]any{}
	if len(bytes.TrimSpace(raw)) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		// Unknown keys are found streaming, before the object becomes a
		// map: a map of 600,000 unknown settings cost ~100 MB.
		unknown, err := unknownKeys(raw, known, func(k string) {
			if ps.full() {
				ps.add("", "")
				return
			}
			list := "none"
			if len(known) > 0 {
				list = strings.Join(known, ", ")
			}
			ps.add(path+"/"+escapePointer(k), "%s: unknown setting %q for a %s connection; its settings are: %s", entry, k, typ, list)
		})
		if unknown {
			return []byte("{}")
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err == nil {
			err = dec.Decode(&settings)
		}
		if err != nil {
			ps.add(path, "%s: settings must be a JSON object", entry)
			return []byte("{}")
		}
	}
	for _, f := range schema.settings {
		v, ok := settings[f.name]
		if !ok || v == nil {
			delete(settings, f.name)
			if f.required {
				ps.add(path+"/"+f.name, "%s: a %s connection needs the setting %q", entry, typ, f.name)
			}
			continue
		}
		val, msg := settingValue(f.kind, v)
		if msg == "" && f.check != nil {
			msg = f.check(val)
		}
		if msg != "" {
			ps.add(path+"/"+f.name, "%s: setting %q %s", entry, f.name, msg)
			continue
		}
		settings[f.name] = val
	}
	out, err := json.Marshal(settings) // maps marshal with sorted keys
	if err != nil {
		ps.add(path, "%s: settings: %v", entry, err)
		return []byte("{}")
	}
	return out
}

func settingValue(kind settingKind, v any) (any, string) {
	switch kind {
	case kindInt:
		n, ok := v.(json.Number)
		if !ok {
			return nil, "must be a whole number"
		}
		i, err := n.Int64()
		if err != nil {
			return nil, "must be a whole number"
		}
		return i, ""
	case kindStrings:
		arr, ok := v.([]any)
		if !ok {
			return nil, "must be an array of strings"
		}
		out := make([]string, 0, len(arr))
		for _, e := range arr {
			s, ok := e.(string)
			if !ok {
				return nil, "must be an array of strings"
			}
			out = append(out, s)
		}
		return out, ""
	}
	s, ok := v.(string)
	if !ok {
		return nil, "must be a string"
	}
	return s, ""
}

// sealedSecrets is how a connection's secrets are stored: each value
// sealed on its own, under its name, so the names can be listed without
// the key and a value copied to another name or row does not open.
type sealedSecrets map[string]string

func secretContext(accountID, mode, connectionID, name string) string {
	return store.ConnectionSecretsContext(accountID, mode, connectionID) + ":" + name
}

func parseSealed(s string) (sealedSecrets, error) {
	out := sealedSecrets{}
	if s == "" {
		return out, nil
	}
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, fmt.Errorf("partners: stored connection secrets are not readable: %w", err)
	}
	return out, nil
}

func (s sealedSecrets) String() string {
	if len(s) == 0 {
		return ""
	}
	b, _ := json.Marshal(map[string]string(s))
	return string(b)
}

// SecretNames lists the names of a connection's stored secrets.
func SecretNames(c store.Connection) []string {
	sealed, err := parseSealed(c.SealedSecrets)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(sealed))
	for n := range sealed {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// OpenSecrets returns a connection's secrets in clear, for the transport
// that uses them. Never log or return them.
func OpenSecrets(box *secrets.Box, c store.Connection) (map[string]string, error) {
	sealed, err := parseSealed(c.SealedSecrets)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(sealed))
	for name, v := range sealed {
		pt, err := box.OpenString(v, secretContext(c.AccountID, c.Mode, c.ID, name))
		if err != nil {
			return nil, fmt.Errorf("partners: connection %s secret %s: %w", c.ID, name, err)
		}
		out[name] = pt
	}
	return out, nil
}

// checkSecrets merges the secrets sent with the stored ones: nil input
// keeps them all; a null value keeps that one; a value replaces it (kept
// as stored when it is the same, so applying twice changes nothing); a
// name left out is removed.
func checkSecrets(box *secrets.Box, c store.Connection, stored string, in map[string]*string, path, entry string, ps *problems) string {
	old, err := parseSealed(stored)
	if err != nil {
		ps.add(path, "%s: %v", entry, err)
		return stored
	}
	schema := connectionSchemas[c.Type]
	if in == nil {
		in = map[string]*string{}
		for name := range old {
			in[name] = nil
		}
	}
	out := sealedSecrets{}
	reported := len(*ps)
	names := make([]string, 0, len(in))
	for n := range in {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		v := in[name]
		p := path + "/" + escapePointer(name)
		if !slices.Contains(schema.secrets, name) {
			list := "none"
			if len(schema.secrets) > 0 {
				list = strings.Join(schema.secrets, ", ")
			}
			ps.add(p, "%s: a %s connection has no secret %q; its secrets are: %s", entry, c.Type, name, list)
			continue
		}
		ctx := secretContext(c.AccountID, c.Mode, c.ID, name)
		if v == nil {
			prev, ok := old[name]
			if !ok {
				ps.add(p, "%s: secret %q is null (keep the stored value) but none is stored; give its value", entry, name)
				continue
			}
			out[name] = prev
			continue
		}
		if *v == "" || len(*v) > MaxSecretBytes {
			ps.add(p, "%s: secret %q must be 1 to %d bytes", entry, name, MaxSecretBytes)
			continue
		}
		if prev, ok := old[name]; ok && box.Configured() {
			if same, err := box.OpenString(prev, ctx); err == nil && same == *v {
				out[name] = prev
				continue
			}
		}
		sealed, err := box.SealString(*v, ctx)
		if err != nil {
			ps.add(p, "%s: secret %q cannot be stored: %v", entry, name, err)
			continue
		}
		out[name] = sealed
	}
	if len(schema.oneSecretOf) > 0 && len(*ps) == reported {
		has := false
		for _, n := range schema.oneSecretOf {
			_, ok := out[n]
			has = has || ok
		}
		if !has {
			ps.add(path, "%s: a %s connection needs one of the secrets %s", entry, c.Type, strings.Join(schema.oneSecretOf, " or "))
		}
	}
	return out.String()
}
