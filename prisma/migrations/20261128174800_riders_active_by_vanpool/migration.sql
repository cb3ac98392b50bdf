-- A vanpool's active riders, counted from the index alone (an index-only scan) by the vanpool lists
-- of the API and the web pages, instead of visiting every rider row of each vanpool on the page.
CREATE INDEX "riders_active_by_vanpool" ON "riders"("vanpool_id") WHERE "status" = 'active';
