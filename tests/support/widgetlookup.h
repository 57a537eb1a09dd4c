#pragma once

#include <QString>
#include <QWidget>

namespace Sandpiper::Test {

// The widget of type T inside PARENT that a screen reader calls ACCESSIBLENAME, as a user finds
// a field by its name; null when there is none.
template<typename T> T *findNamed(QWidget *parent, const QString &accessibleName)
{
    for (T *widget : parent->findChildren<T *>()) {
        if (widget->accessibleName() == accessibleName)
            return widget;
    }
    return nullptr;
}

} // namespace Sandpiper::Test
