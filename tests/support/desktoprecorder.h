#pragma once

#include <QList>
#include <QObject>
#include <QUrl>

namespace Sandpiper::Test {

// Stands in for the desktop: records what the app asks it to open. Register it with
// QDesktopServices::setUrlHandler(QStringLiteral("file"), &recorder, "open").
class DesktopRecorder : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public Q_SLOTS:
    void open(const QUrl &url) { opened << url; }
};

} // namespace Sandpiper::Test
