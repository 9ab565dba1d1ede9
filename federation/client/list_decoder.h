#pragma once
// Decodes a list response (`{"kind": "...List", "metadata": {...}, "items": [...]}`) item by
// item: each item becomes a tree of its own and is handed over as soon as its closing brace is
// read, so a caller that keeps items in another form (an informer cache keeps compact text)
// never holds the whole list as trees. Parsing the body into one tree first would cost about
// ten times the body's size at once, for every list of every informer.

#include <string_view>

#include "apis/meta/api_error.h"
#include "apis/meta/object.h"
#include "federation/client/list_options.h"

namespace kf {

// The list's metadata (resourceVersion, continue, remainingItemCount), with `items` left empty:
// every item went to `on_item`. Items without kind and apiVersion (those of built-in lists) get
// the list's, so each item is self-describing. Fails on a body that is not JSON, not an object,
// has no `items`, or has an item that is not an object; items before the error may have been
// handed over.
Result<ObjectList> decodeListEach(std::string_view body, const ListItemSink& on_item);

// The same, collecting the items into the result.
Result<ObjectList> decodeList(std::string_view body);

}  // namespace kf
