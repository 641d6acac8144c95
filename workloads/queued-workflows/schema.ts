// The run's DBOS tables for the queued workflows: workflow_status and operation_outputs as the profile's
// library creates them (workloads/dbos/schema.ts), and, for the current profile, application_versions with
// the one version the workers run, which every current dequeue looks up first.
import type pg from "pg";
import { dbosSchemaDdl, type DbosProfile } from "../dbos/schema";

/** The current profile's application_versions (dbos 2.32's migration, its later application_name column and index). */
const APPLICATION_VERSIONS = (s: string) => `
CREATE TABLE ${s}.application_versions (
  version_id TEXT NOT NULL PRIMARY KEY,
  version_name TEXT NOT NULL UNIQUE,
  version_timestamp BIGINT NOT NULL DEFAULT (EXTRACT(epoch FROM now()) * 1000.0)::bigint,
  created_at BIGINT NOT NULL DEFAULT (EXTRACT(epoch FROM now()) * 1000.0)::bigint,
  application_name TEXT DEFAULT NULL);
CREATE UNIQUE INDEX uq_application_versions_owner_version ON ${s}.application_versions (application_name, version_name);`;

export async function createQwSchema(admin: pg.Client, s: string, profile: DbosProfile, appVersion: string, applicationName: string) {
  await admin.query(dbosSchemaDdl(s, profile));
  if (profile === "current") {
    await admin.query(APPLICATION_VERSIONS(s));
    await admin.query(`INSERT INTO ${s}.application_versions (version_id, version_name, application_name) VALUES (gen_random_uuid()::text, $1, $2)`, [
      appVersion,
      applicationName,
    ]);
  }
}
