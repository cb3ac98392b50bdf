-- CreateTable
CREATE TABLE "sandbox_workspaces" (
    "id" TEXT NOT NULL,
    "state" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sandbox_workspaces_pkey" PRIMARY KEY ("id")
);
