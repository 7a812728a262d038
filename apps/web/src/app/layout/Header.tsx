import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { Link, NavLink } from 'react-router';
import { BagIcon, CartIcon, UserIcon } from '#web/components/icons.tsx';
import { displayName, useAuth } from '#web/lib/auth.ts';
import { itemCount } from '#web/lib/cart-logic.ts';
import { useCart } from '#web/lib/cart.ts';
import { useSupportUnread } from '#web/lib/support-unread.ts';
import { useLogout } from '../use-logout.ts';
import { CategoryMenu } from './CategoryMenu.tsx';
import { SearchBox } from './SearchBox.tsx';
import { ThemeSwitch } from './ThemeSwitch.tsx';
import { paths } from '#web/lib/paths.ts';

export function Header() {
  const userInfo = useAuth((s) => s.userInfo);
  const count = useCart((s) => itemCount(s.cartItems));
  const logout = useLogout();
  const [expanded, setExpanded] = useState(false);
  const close = () => setExpanded(false);
  const waiting = useSupportUnread().data;
  // support replies the shopper has not read, and (admins) conversations the inbox has not read
  const replies = waiting?.unread ?? 0;
  const inbox = waiting?.inbox ?? 0;

  return (
    <header>
      <Navbar expand="lg" className="site-navbar" expanded={expanded} onToggle={setExpanded} collapseOnSelect>
        <Container>
          <Navbar.Brand as={Link} to={paths.home} onClick={close} className="d-flex align-items-center gap-2 fw-bold">
            <BagIcon size={24} className="text-primary" /> Store
          </Navbar.Brand>
          <Navbar.Toggle aria-controls="main-nav" label="Menu" className="order-2" />
          <Navbar.Collapse id="main-nav" className="order-3">
            <div className="flex-grow-1 my-2 my-lg-0 mx-lg-4">
              <SearchBox onSearch={close} />
            </div>
            <Nav className="align-items-lg-center gap-lg-2">
              <CategoryMenu onNavigate={close} />
              <div className="nav-item py-2 py-lg-0">
                <ThemeSwitch />
              </div>
              {userInfo ? (
                <NavDropdown
                  id="account-menu"
                  align="end"
                  title={
                    <span className="d-inline-flex align-items-center gap-1">
                      <UserIcon size={16} /> {displayName(userInfo)}
                      {replies > 0 && <UnreadBadge count={replies} label="unread support replies" />}
                    </span>
                  }
                >
                  {!userInfo.isGuest && (
                    <>
                      <NavDropdown.Item as={Link} to={paths.profile} onClick={close}>
                        Profile
                      </NavDropdown.Item>
                      <NavDropdown.Item as={Link} to={paths.contactSupport} onClick={close}>
                        Contact Support
                        {replies > 0 && <UnreadBadge count={replies} label="unread" testId="support-unread" />}
                      </NavDropdown.Item>
                      <NavDropdown.Divider />
                    </>
                  )}
                  <NavDropdown.Item
                    as="button"
                    onClick={() => {
                      close();
                      logout();
                    }}
                  >
                    Logout
                  </NavDropdown.Item>
                </NavDropdown>
              ) : (
                <Nav.Link
                  as={NavLink}
                  to={paths.login()}
                  onClick={close}
                  className="d-inline-flex align-items-center gap-1"
                >
                  <UserIcon size={16} /> Sign In
                </Nav.Link>
              )}
              {userInfo?.isAdmin && (
                <NavDropdown
                  id="admin-menu"
                  align="end"
                  title={
                    <span>
                      Admin
                      {inbox > 0 && <UnreadBadge count={inbox} label="unread support conversations" />}
                    </span>
                  }
                >
                  <NavDropdown.Item as={Link} to={paths.adminDashboard} onClick={close}>
                    Dashboard
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to={paths.adminUsers} onClick={close}>
                    Users
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to={paths.adminProducts} onClick={close}>
                    Products
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to={paths.adminOrders} onClick={close}>
                    Orders
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to={paths.adminCoupons} onClick={close}>
                    Discount Codes
                  </NavDropdown.Item>
                  <NavDropdown.Item as={Link} to={paths.adminSupport} onClick={close}>
                    Support
                    {inbox > 0 && <UnreadBadge count={inbox} label="unread" testId="inbox-unread-count" />}
                  </NavDropdown.Item>
                </NavDropdown>
              )}
            </Nav>
          </Navbar.Collapse>
          {/* After the menu in reading order; shown beside the toggler on small screens. */}
          <Nav className="order-1 order-lg-4 ms-auto me-2 ms-lg-2 me-lg-0">
            <CartLink count={count} onClick={close} />
          </Nav>
        </Container>
      </Navbar>
    </header>
  );
}

/** A count of unread support messages beside a menu entry, read out as e.g. "2 unread". */
function UnreadBadge({ count, label, testId }: { count: number; label: string; testId?: string }) {
  return (
    <Badge pill bg="danger" className="ms-1" data-testid={testId}>
      {count > 99 ? '99+' : count}
      <span className="visually-hidden"> {label}</span>
    </Badge>
  );
}

function CartLink({ count, onClick }: { count: number; onClick: () => void }) {
  return (
    <Nav.Link
      as={NavLink}
      to={paths.cart}
      onClick={onClick}
      className="cart-link d-flex align-items-center gap-1"
      aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
    >
      <CartIcon size={20} />
      <span className="d-none d-sm-inline" aria-hidden="true">
        Cart
      </span>
      {count > 0 && (
        <Badge pill bg="danger" className="cart-badge" data-testid="cart-count" aria-hidden="true">
          {count}
        </Badge>
      )}
    </Nav.Link>
  );
}
