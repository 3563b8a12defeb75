// Purpose: nothing but a start: a transaction begun with a request's presented bookmarks starts only
//   once its server has reached them, so running this bounds that wait (BOOKMARK_WAIT_MS) before the
//   request's real work starts.
// Params: none
// Returns: reached
RETURN true AS reached
