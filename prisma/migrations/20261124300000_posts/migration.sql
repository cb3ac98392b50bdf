-- CreateTable
CREATE TABLE "slack_post_intents" (
    "key" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "held_until" TIMESTAMPTZ(3) NOT NULL,
    "intended_at" TIMESTAMPTZ(3) NOT NULL,
    "ts" TEXT,

    CONSTRAINT "slack_post_intents_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "slack_channel_pace" (
    "channel" TEXT NOT NULL,
    "next_free_at" TIMESTAMPTZ(3) NOT NULL,
    "paused_until" TIMESTAMPTZ(3),

    CONSTRAINT "slack_channel_pace_pkey" PRIMARY KEY ("channel")
);
