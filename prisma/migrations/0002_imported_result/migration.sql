CREATE TABLE "imported_result" (
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "workload" TEXT NOT NULL,
    "raw_text" TEXT NOT NULL,
    "parsed" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "imported_result_pkey" PRIMARY KEY ("id")
);
