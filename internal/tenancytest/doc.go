// Package tenancytest proves the tenancy model (docs/architecture/tenancy.md)
// over the real HTTP API on SQLite and PostgreSQL: every resource type one
// account creates in one mode — key, partner profile, partnership,
// connection, SFTP user, webhook, file execution, transaction, claim,
// eligibility check, event — is invisible, unchangeable and unreachable
// for a second account and for the same account's other mode. It also
// keeps the tenant-facing code (internal/api, internal/web) reading tenant
// records only through store.Tenant, the one place the rule is enforced.
package tenancytest
