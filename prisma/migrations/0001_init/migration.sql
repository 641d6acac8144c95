CREATE TABLE "target" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "connection_string" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "target_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "target_name_key" ON "target"("name");

CREATE TABLE "run" (
    "id" TEXT NOT NULL,
    "workload" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "target_id" TEXT,
    "target_label" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "phase" TEXT,
    "source" TEXT NOT NULL DEFAULT 'app',
    "runner_id" TEXT,
    "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "summary" JSONB,
    CONSTRAINT "run_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "run_status_created_at_idx" ON "run"("status", "created_at");
ALTER TABLE "run" ADD CONSTRAINT "run_target_id_fkey" FOREIGN KEY ("target_id") REFERENCES "target"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "sample" (
    "run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "phase" TEXT NOT NULL,
    "metrics" JSONB NOT NULL,
    CONSTRAINT "sample_pkey" PRIMARY KEY ("run_id","seq")
);
ALTER TABLE "sample" ADD CONSTRAINT "sample_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "runner" (
    "id" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_heartbeat" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "runner_pkey" PRIMARY KEY ("id")
);
