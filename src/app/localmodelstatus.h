#pragma once

#include <QWidget>

class QToolButton;

namespace Sandpiper {

class ElidedLabel;
class LocalModelHost;

// The status bar's word on the model on this computer: loading (with the seconds), ready,
// stopped or why it failed (the whole text, with the end of the server's log, as a tooltip),
// and its log one click away. Hidden until the model first runs.
class LocalModelStatus : public QWidget
{
    Q_OBJECT

public:
    explicit LocalModelStatus(LocalModelHost *host, QWidget *parent = nullptr);

    QString text() const;
    QToolButton *logButton() const { return m_log; }

private:
    void show(const QString &message);

    LocalModelHost *m_host;
    ElidedLabel *m_label;
    QToolButton *m_log;
};

} // namespace Sandpiper
