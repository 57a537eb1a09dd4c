#pragma once

#include <QByteArray>

namespace Sandpiper::Test {

// The reason phrase of an HTTP status line, as real servers send it, for the fake servers.
QByteArray reasonPhrase(int status);

} // namespace Sandpiper::Test
