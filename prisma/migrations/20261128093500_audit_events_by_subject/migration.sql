-- A case's timeline reads its events by subject id alone (every kind of subject), in order.
-- CreateIndex
CREATE INDEX "audit_events_subject_id_id_idx" ON "audit_events"("subject_id", "id");
