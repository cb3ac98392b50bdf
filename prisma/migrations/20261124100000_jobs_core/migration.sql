-- CreateTable
CREATE TABLE "work_leases" (
    "key" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "work_leases_pkey" PRIMARY KEY ("key")
);
