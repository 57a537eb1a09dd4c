#pragma once

#include <QFrame>

class QToolButton;

namespace Sandpiper {

// One attached file as a chip: the icon of its type (from the MIME database, else the style's
// file icon), its name (elided when long, whole in the tooltip) and size; in the message box a
// button takes it off the message. Chips go into a FlowLayout, so that they wrap.
class AttachmentChip : public QFrame
{
    Q_OBJECT

public:
    // SIZE in bytes, 0 when not known. REMOVABLE adds the remove button.
    AttachmentChip(const QString &name, qint64 size, bool removable, QWidget *parent = nullptr);

    const QString &name() const { return m_name; }
    QToolButton *removeButton() const { return m_remove; }

    // The icon of the type that NAME's extension says.
    static QIcon iconFor(const QString &name, const QWidget *widget);

Q_SIGNALS:
    void removeRequested(const QString &name);

private:
    QString m_name;
    QToolButton *m_remove = nullptr;
};

} // namespace Sandpiper
