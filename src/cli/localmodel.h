#pragma once

#include "result.h"

#include <QUrl>

namespace Sandpiper {

class LocalModelHost;

// --provider local: the GGUF model NAME found on this computer (by its name, its file's name or
// its path; the only one when NAME is empty), started by HOST, the app's own LocalModelHost, with
// what happens on stderr, before the message goes (the session then finds it running). Its /v1
// address, or why it cannot run.
Result<QUrl> startLocalModel(LocalModelHost &host, const QString &name);

} // namespace Sandpiper
