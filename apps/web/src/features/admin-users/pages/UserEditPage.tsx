import { zodResolver } from '@hookform/resolvers/zod';
import { adminUserUpdateSchema, type AdminUser } from '@store/shared';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { Field } from '#web/components/Field.tsx';
import { useAdminUser, useUpdateUser } from '../api.ts';
import { paths } from '#web/lib/paths.ts';

export default function UserEditPage() {
  useDocumentTitle('Edit User');
  const { id = '' } = useParams();
  const { data, error, isPending } = useAdminUser(id);
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-md-8 col-lg-6">
        <Link to={paths.adminUsers} className="btn btn-outline-secondary btn-sm mb-3">
          Go Back
        </Link>
        <h1 className="h3 mb-4">Edit User</h1>
        {isPending ? (
          <Loader />
        ) : error ? (
          <Message variant="danger">{error.message}</Message>
        ) : (
          <EditForm user={data} />
        )}
      </div>
    </div>
  );
}

function EditForm({ user }: { user: AdminUser }) {
  const navigate = useNavigate();
  const update = useUpdateUser(user._id);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(adminUserUpdateSchema),
    mode: 'onChange',
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
      email: user.email,
      isAdmin: user.isAdmin,
      isActive: user.isActive,
    },
  });
  const onSubmit = handleSubmit((v) => update.mutate(v, { onSuccess: () => navigate(paths.adminUsers) }));

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit user">
      {update.error && <Message variant="danger">{update.error.message}</Message>}
      <Field
        id="edit-first"
        label="First Name"
        registration={register('firstName')}
        error={errors.firstName?.message}
      />
      <Field id="edit-last" label="Last Name" registration={register('lastName')} error={errors.lastName?.message} />
      <Field id="edit-username" label="Username" registration={register('username')} error={errors.username?.message} />
      <Field
        id="edit-email"
        label="Email Address"
        type="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <div className="form-check mb-2">
        <input id="edit-admin" type="checkbox" className="form-check-input" {...register('isAdmin')} />
        <label htmlFor="edit-admin" className="form-check-label">
          Is Admin
        </label>
      </div>
      <div className="form-check mb-3">
        <input id="edit-active" type="checkbox" className="form-check-input" {...register('isActive')} />
        <label htmlFor="edit-active" className="form-check-label">
          Is Active
        </label>
      </div>
      <button type="submit" className="btn btn-primary" disabled={!isValid || update.isPending}>
        {update.isPending ? 'Updating…' : 'Update'}
      </button>
    </form>
  );
}
